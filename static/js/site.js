// The site's only script of its own (htmx does the rest). No inline handlers: the
// Content-Security-Policy allows scripts from this site's files only.
document.addEventListener("change", (event) => {
  const target = event.target;
  if (target instanceof HTMLSelectElement && target.dataset.autosubmit !== undefined) {
    target.form.submit();
  }
});
document.addEventListener("click", (event) => {
  const target = event.target.closest("[data-print]");
  if (target) {
    window.print();
  }
});
// A card picture that fails to load is removed, uncovering the card face drawn beneath it.
document.addEventListener(
  "error",
  (event) => {
    if (event.target instanceof HTMLImageElement && event.target.classList.contains("face-image")) {
      event.target.remove();
    }
  },
  true,
);
