"""What the layout harness measures in the browser besides axe: short names and labels that wrap,
and targets too small to tap (the scripts run in the page; each returns a list of faults)."""

from __future__ import annotations

from typing import Any

# A name or label of up to six characters (a card's name, a heading, a button's word) never
# breaks onto a second line: 南/蠻/入/侵 one character a line is what a squeezed column does.
SHORT_TEXT_WRAPS = r"""
() => {
  const faults = [];
  const hidden = new Map();
  const clipped = (el) => {
    if (!el || el === document.body) return false;
    if (hidden.has(el)) return hidden.get(el);
    const s = getComputedStyle(el);
    const value = (s.clipPath && s.clipPath !== "none") || (s.clip && s.clip !== "auto") || clipped(el.parentElement);
    hidden.set(el, value);
    return value;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const start = node.data.search(/\S/);
    if (start < 0) continue;
    const text = node.data.trim();
    if ([...text].length > 6 || /\s/.test(text)) continue;
    const el = node.parentElement;
    if (!el || el.closest("script, style, template, noscript, textarea, select, svg, pre, code")) continue;
    // words of a sentence (text beside other text or elements) may wrap as the sentence does
    if ([...el.childNodes].some((other) => other !== node && other.textContent.trim())) continue;
    if (getComputedStyle(el).visibility === "hidden" || clipped(el)) continue;
    // a closed <details> lays its content out at no width, unseen
    if (el.closest("details:not([open]) > :not(summary)")) continue;
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, start + text.length);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (rects.length < 2) continue;
    const lines = [];
    for (const r of rects) {
      if (!lines.some((top) => Math.abs(top - r.top) < r.height / 2)) lines.push(r.top);
    }
    if (lines.length > 1) faults.push(`"${text}" wraps onto ${lines.length} lines (<${el.tagName.toLowerCase()} class="${el.className}">)`);
  }
  return faults;
}
"""

# WCAG 2.2 2.5.8 (target size, minimum): a target is at least 24 × 24 CSS px, or a 24 px circle
# on its centre touches no other target (nor another small target's circle); a link inside a
# sentence is exempt. Our own rule at phone widths: 44 × 44 for buttons, steppers and the links
# that act as buttons (class "button" or "action": round numbers, print, back).
TARGET_SIZES = r"""
(big) => {
  const faults = [];
  const selector = "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]";
  const buttonLike = "button, input[type=submit], input[type=button], input[type=reset], a.button, a.action, summary.action, .counter summary";
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    if (el.closest("details:not([open]) > :not(summary)")) return false;
    const s = getComputedStyle(el);
    return s.visibility !== "hidden" && s.display !== "none";
  };
  const inSentence = (el) => {
    if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") return false;
    let block = el.parentElement;
    while (block && getComputedStyle(block).display === "inline") block = block.parentElement;
    if (!block) return false;
    const own = el.textContent.replace(/\s+/g, "");
    const all = block.textContent.replace(/\s+/g, "");
    return all.length - own.length >= 2;
  };
  const targets = [...document.querySelectorAll(selector)].filter(visible).map((el) => ({ el, r: el.getBoundingClientRect() }));
  const small = (t) => t.r.width < 23.5 || t.r.height < 23.5;
  const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];
  const distanceToRect = (x, y, r) => Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
  const name = (el) => `<${el.tagName.toLowerCase()}${el.className ? ` class="${el.className}"` : ""}> "${(el.textContent || el.value || el.getAttribute("aria-label") || "").trim().slice(0, 20)}"`;
  for (const t of targets) {
    const size = `${Math.round(t.r.width)}×${Math.round(t.r.height)}`;
    if (big && t.el.matches(buttonLike) && (t.r.width < 43.5 || t.r.height < 43.5)) {
      faults.push(`${name(t.el)} is ${size} px, under 44 × 44`);
      continue;
    }
    if (!small(t) || inSentence(t.el)) continue;
    const [x, y] = centre(t.r);
    const crowded = targets.some((o) => {
      if (o === t || o.el.contains(t.el) || t.el.contains(o.el)) return false;
      if (distanceToRect(x, y, o.r) < 12) return true;
      if (!small(o)) return false;
      const [ox, oy] = centre(o.r);
      return Math.hypot(x - ox, y - oy) < 24;
    });
    if (crowded) faults.push(`${name(t.el)} is ${size} px and too close to another target`);
  }
  return faults;
}
"""


def layout_faults(page: Any, width: int) -> list[str]:
    """The short texts that wrap and the targets too small to tap, on the page as it is drawn."""
    faults = [f"wraps: {fault}" for fault in page.evaluate(SHORT_TEXT_WRAPS)] if width <= 400 else []
    return faults + [f"target: {fault}" for fault in page.evaluate(TARGET_SIZES, width <= 400)]
