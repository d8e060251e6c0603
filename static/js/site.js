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
// The round timer: each <time class="round-end"> counts down to the end the server set. Without
// JavaScript the end time itself is shown.
function tickRoundTimers() {
  for (const element of document.querySelectorAll("time.round-end[datetime]")) {
    const left = Math.round((Date.parse(element.getAttribute("datetime")) - Date.now()) / 1000);
    const clock = element.querySelector(".left") || element.appendChild(document.createElement("span"));
    clock.className = "left";
    const minutes = Math.floor(Math.abs(left) / 60);
    const seconds = String(Math.abs(left) % 60).padStart(2, "0");
    clock.textContent = ` (${left < 0 ? "+" : ""}${minutes}:${seconds})`;
    element.classList.toggle("over", left < 0);
  }
}
tickRoundTimers();
setInterval(tickRoundTimers, 1000);
