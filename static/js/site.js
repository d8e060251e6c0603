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
// JavaScript the end time itself is shown. A paused clock (data-paused) shows the server's time
// left and stands still; a countdown (the venue's screen) is the time left alone.
function tickRoundTimers() {
  for (const element of document.querySelectorAll("time.round-end[datetime]:not([data-paused])")) {
    const left = Math.round((Date.parse(element.getAttribute("datetime")) - Date.now()) / 1000);
    const minutes = Math.floor(Math.abs(left) / 60);
    const seconds = String(Math.abs(left) % 60).padStart(2, "0");
    const text = `${left < 0 ? "+" : ""}${minutes}:${seconds}`;
    if (element.classList.contains("countdown")) {
      element.textContent = text;
    } else {
      const clock = element.querySelector(".left") || element.appendChild(document.createElement("span"));
      clock.className = "left";
      clock.textContent = ` (${text})`;
    }
    element.classList.toggle("over", left < 0);
  }
}
tickRoundTimers();
setInterval(tickRoundTimers, 1000);
// A day action done by htmx loads the page again with ?shown=<id>: show that element (what
// changed), then tidy the address. Without JavaScript the redirect's #fragment does the same.
{
  const address = new URL(window.location.href);
  const shown = address.searchParams.get("shown");
  const element = shown && /^[\w-]+$/.test(shown) ? document.getElementById(shown) : null;
  if (element) {
    element.scrollIntoView({ block: "start" });
    address.searchParams.delete("shown");
    address.hash = shown;
    history.replaceState(null, "", address);
  }
}
// The venue's clock: a button fills the screen with it (the browser's full-screen mode needs a
// tap), and the screen is kept awake while the clock shows (a wake lock, asked again whenever
// the page is shown again: the browser lets it go when the page is hidden). Where the browser
// offers neither, the page is the same without them.
for (const button of document.querySelectorAll("button[data-fullscreen]")) {
  if (typeof document.documentElement.requestFullscreen === "function") {
    button.hidden = false;
    button.addEventListener("click", () => document.documentElement.requestFullscreen().catch(() => {}));
    document.addEventListener("fullscreenchange", () => {
      button.hidden = Boolean(document.fullscreenElement);
    });
  }
}
async function keepAwake() {
  if (!document.querySelector("[data-wake-lock]") || !("wakeLock" in navigator) || document.hidden) {
    return;
  }
  try {
    await navigator.wakeLock.request("screen");
  } catch {
    // Refused (a saver mode, a policy): the screen may sleep, the clock still runs.
  }
}
keepAwake();
document.addEventListener("visibilitychange", keepAwake);
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
// A card's face, shown beside its name: on hover or keyboard focus with a mouse, and on a touch
// screen at the first tap on the name (a second tap, or the button, opens the card's page). Card
// pages are /cards/<code>/; the catalogue's other pages under /cards/ are not cards.
const CARD_PAGE = /^\/cards\/(?!syntax\/|incomplete\/)[^/]+\/$/;
let facePreview = null;
let faceFor = null;
let hideTimer = null;
let lastPointer = "mouse";
// From here on the faces are shown by this script (a tap on a phone included): the peeks that
// CSS shows on hover for pages read without JavaScript step aside.
document.documentElement.classList.add("face-previews");
function faceAddress(link) {
  if (!(link instanceof HTMLAnchorElement) || link.querySelector("img:not(.card-peek), svg") || link.closest(".face-preview")) {
    return null;
  }
  // A card link in what users write ([[新兵]]) carries its face, for pages read without
  // JavaScript; it names the card even when the link goes to the list of a shared name.
  const peek = link.querySelector("img.card-peek");
  if (peek) {
    return `${peek.getAttribute("src")}?lang=${encodeURIComponent(document.documentElement.lang)}`;
  }
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || !CARD_PAGE.test(url.pathname)) {
    return null;
  }
  return `${url.pathname}face.svg?lang=${encodeURIComponent(document.documentElement.lang)}`;
}
function preview() {
  if (!facePreview) {
    const template = document.getElementById("face-preview-template");
    if (!template) {
      return null;
    }
    facePreview = template.content.firstElementChild.cloneNode(true);
    document.body.appendChild(facePreview);
    facePreview.addEventListener("mouseenter", () => clearTimeout(hideTimer));
    facePreview.addEventListener("mouseleave", () => hideFace(150));
  }
  return facePreview;
}
function showFace(link, touch) {
  const address = faceAddress(link);
  const box = address && preview();
  if (!box) {
    return;
  }
  clearTimeout(hideTimer);
  faceFor = link;
  const image = box.querySelector("img");
  image.src = address;
  image.alt = link.textContent.trim();
  box.querySelector(".face-preview-actions a").href = link.href;
  showTerms(box, address, link);
  box.classList.toggle("touch", touch);
  box.hidden = false;
  if (!touch) {
    // beside the name, inside the window, never over the name itself
    const rect = link.getBoundingClientRect();
    const width = box.offsetWidth;
    const height = box.offsetHeight;
    const right = rect.right + 12 + width <= window.innerWidth;
    box.style.left = `${right ? rect.right + 12 : Math.max(4, rect.left - 12 - width)}px`;
    box.style.top = `${Math.min(Math.max(4, rect.top - height / 3), window.innerHeight - height - 4)}px`;
  } else {
    box.style.left = "";
    box.style.top = "";
    box.querySelector(".face-preview-actions a").focus({ preventScroll: true });
  }
}
// A face is a picture: the terms it names cannot be marked on it. They are listed beneath it,
// each with its definition: the card's terms from its API answer, their definitions from
// /api/terms/ (read once a page), in the page's script (Traditional on English pages).
let termDefinitions = null;
function readJSON(address) {
  return fetch(address, { headers: { Accept: "application/json" } }).then((answer) =>
    answer.ok ? answer.json() : Promise.reject(new Error(String(answer.status))),
  );
}
function showTerms(box, address, link) {
  const list = box.querySelector(".face-terms");
  const row = document.getElementById("face-term-template");
  if (!list || !row) {
    return;
  }
  list.replaceChildren();
  list.hidden = true;
  const lang = document.documentElement.lang.toLowerCase();
  const script = lang === "zh-hans" ? "zh_hans" : "zh_hant";
  const english = !lang.startsWith("zh");
  termDefinitions =
    termDefinitions || readJSON("/api/terms/").then((rows) => new Map(rows.map((term) => [term.slug, term])));
  Promise.all([readJSON(`/api${address.split("face.svg")[0]}`), termDefinitions])
    .then(([card, definitions]) => {
      if (faceFor !== link) {
        return;
      }
      for (const slug of card.terms || []) {
        const term = definitions.get(slug);
        if (!term) {
          continue;
        }
        const item = row.content.firstElementChild.cloneNode(true);
        item.querySelector(".face-term-english").textContent = english ? term.term.en : "";
        const word = item.querySelector(".face-term-word");
        word.textContent = term.term[script];
        word.lang = script === "zh_hans" ? "zh-Hans" : "zh-Hant";
        const said = item.querySelector("dd");
        said.textContent = term.definition[script] || list.dataset.undefined;
        if (term.definition[script]) {
          said.lang = word.lang;
        }
        list.append(item);
      }
      list.hidden = !list.children.length;
    })
    .catch(() => {
      list.hidden = true;
    });
}
function hideFace(delay) {
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => {
    if (facePreview) {
      facePreview.hidden = true;
    }
    faceFor = null;
  }, delay);
}
document.addEventListener("pointerdown", (event) => {
  lastPointer = event.pointerType;
});
document.addEventListener("mouseover", (event) => {
  const link = event.target.closest && event.target.closest("a[href]");
  if (link && lastPointer === "mouse" && faceAddress(link) && link !== faceFor) {
    showFace(link, false);
  }
});
document.addEventListener("mouseout", (event) => {
  const link = event.target.closest && event.target.closest("a[href]");
  if (link && link === faceFor && !link.contains(event.relatedTarget)) {
    hideFace(150);
  }
});
// Focus given back to a name when its face is closed must not open the face again.
let returningFocus = false;
function giveFocusBack(link) {
  returningFocus = true;
  link.focus({ preventScroll: true });
  returningFocus = false;
}
document.addEventListener("focusin", (event) => {
  const link = event.target;
  if (returningFocus) {
    return;
  }
  if (link.matches && link.matches(":focus-visible") && faceAddress(link)) {
    showFace(link, false);
  } else if (faceFor && !(facePreview && facePreview.contains(link))) {
    hideFace(0);
  }
});
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-face-close]")) {
    const link = faceFor;
    hideFace(0);
    if (link) {
      giveFocusBack(link);
    }
    return;
  }
  const link = event.target.closest("a[href]");
  if (lastPointer === "touch" && link && faceAddress(link) && link !== faceFor) {
    event.preventDefault(); // the first tap shows the face; the second opens the page
    showFace(link, true);
  } else if (facePreview && !facePreview.hidden && !facePreview.contains(event.target) && link !== faceFor) {
    hideFace(0);
  }
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && facePreview && !facePreview.hidden) {
    const link = faceFor;
    hideFace(0);
    if (link && facePreview.classList.contains("touch")) {
      giveFocusBack(link);
    }
  }
});
document.addEventListener("htmx:beforeSwap", () => hideFace(0));
// A game term (catalog.terms): on a touch screen the first tap shows its definition and stays on
// the page; a second tap on the word opens its rules section. A tap elsewhere, or Escape, closes it.
document.addEventListener("click", (event) => {
  const term = event.target.closest && event.target.closest(".term");
  for (const open of document.querySelectorAll(".term.open")) {
    if (open !== term) {
      open.classList.remove("open");
    }
  }
  const link = term && event.target.closest("a[href]");
  if (link && lastPointer === "touch" && !term.classList.contains("open") && term.querySelector(".term-tip")) {
    event.preventDefault();
    term.classList.add("open");
    // The definition is a sheet at the foot of the screen: the word stays above it, in reach.
    const tip = term.querySelector(".term-tip");
    const under = link.getBoundingClientRect().bottom + 8 - tip.getBoundingClientRect().top;
    if (under > 0 && getComputedStyle(tip).position === "fixed") {
      window.scrollBy(0, under);
    }
  }
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") {
    for (const open of document.querySelectorAll(".term.open")) {
      open.classList.remove("open");
    }
  }
});
// Photos are shrunk in the browser before they are sent (an input with data-shrink="N": at most N
// pixels on the long side), turned upright by their EXIF orientation: a phone's 12 MP photo of
// 5 MB goes as a few hundred KB, and reads as well. HEIC (an iPhone's own format, which a canvas
// cannot always open) and PDFs go unchanged; so does everything without JavaScript. The server
// takes a full-size photo all the same.
async function shrunkPhoto(file, side) {
  if (!file.type.startsWith("image/") || /hei[cf]/i.test(file.type) || !window.createImageBitmap) {
    return file;
  }
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return file;
  }
  const scale = side / Math.max(bitmap.width, bitmap.height);
  if (scale >= 1) {
    bitmap.close();
    return file;
  }
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
  if (!blob) {
    return file;
  }
  return new File([blob], `${file.name.replace(/\.[^.]*$/, "")}.jpg`, { type: "image/jpeg" });
}
document.addEventListener("submit", async (event) => {
  const form = event.target;
  const inputs = [...form.querySelectorAll("input[type=file][data-shrink]")].filter((i) => i.files.length);
  if (!inputs.length || typeof DataTransfer === "undefined") {
    return;
  }
  event.preventDefault();
  for (const input of inputs) {
    const files = await Promise.all([...input.files].map((f) => shrunkPhoto(f, Number(input.dataset.shrink))));
    const transfer = new DataTransfer();
    files.forEach((f) => transfer.items.add(f));
    input.files = transfer.files;
  }
  HTMLFormElement.prototype.submit.call(form); // sends the form as it is, without this handler
});
