// A link focused from the keyboard in a list that scrolls in its own box (a list wider
// than the window, style.css .list-box) is brought wholly into view: Chromium scrolls a
// focused element into view only when none of it shows, and left a link half out of
// its box. Not on a click (the pointer's focus is not :focus-visible): the box stays
// put under the pointer. Without scripts the page reads as before (docs/web.md).
"use strict";
document.addEventListener("focusin", (e) => {
  const el = e.target;
  if (!(el instanceof Element) || !el.matches(".list-box a:focus-visible")) return;
  el.scrollIntoView({ block: "nearest", inline: "nearest" });
});
