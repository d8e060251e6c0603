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
// Copy buttons (share links, deck lists): hidden without JavaScript or a clipboard, where the
// text itself stays selectable. data-copy names an element whose value or text is copied;
// data-copy-url a page whose text is.
for (const button of document.querySelectorAll("button[data-copy], button[data-copy-url]")) {
  if (navigator.clipboard) {
    button.hidden = false;
  }
}
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy], button[data-copy-url]");
  if (!button) {
    return;
  }
  let text;
  if (button.dataset.copyUrl) {
    const response = await fetch(button.dataset.copyUrl, { credentials: "same-origin" });
    text = await response.text();
  } else {
    const source = document.querySelector(button.dataset.copy);
    text = source ? source.value || source.href || source.textContent : "";
  }
  await navigator.clipboard.writeText(text.trim());
  const label = button.textContent;
  button.textContent = button.dataset.copied;
  setTimeout(() => {
    button.textContent = label;
  }, 2000);
});
// After htmx replaces a part of the page (a counter's +1, a deck line's ±), focus goes back to
// the same control in the new part, not to the top of the page: keyboard and screen reader
// users keep their place.
let focusBeforeSwap = null;
document.addEventListener("htmx:beforeSwap", (event) => {
  const active = document.activeElement;
  const target = event.detail.target;
  if (active && active !== document.body && target && target.id && target.contains(active)) {
    focusBeforeSwap = { id: target.id, tag: active.tagName, name: active.name || "", value: active.value || "" };
  }
});
document.addEventListener("htmx:afterSettle", () => {
  if (!focusBeforeSwap) {
    return;
  }
  const { id, tag, name, value } = focusBeforeSwap;
  focusBeforeSwap = null;
  const root = document.getElementById(id);
  if (!root) {
    return;
  }
  const same = root.querySelector(`${tag}[name="${CSS.escape(name)}"][value="${CSS.escape(value)}"]`);
  const fallback = root.querySelector("button:not([disabled]), input:not([type=hidden]), select, a[href]");
  const chosen = same && !same.disabled ? same : fallback;
  if (chosen) {
    chosen.focus();
  }
});
