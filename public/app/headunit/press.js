// Pressing as a driver presses: a tap is a SHORT press, a hold of a second or more a LONG one
// (ButtonPressMode, MOBILE_API.xml).

/** Calls `press(mode)` when `node` is released: SHORT, or LONG after a hold of 1 s or more. */
export function holdToPress(node, press) {
  let downAt = null;
  node.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    downAt = performance.now();
    node.classList.add("held");
  });
  const cancel = () => {
    downAt = null;
    node.classList.remove("held");
  };
  node.addEventListener("pointerleave", cancel);
  node.addEventListener("pointercancel", cancel);
  node.addEventListener("click", (event) => {
    // A keyboard press (Enter, Space) has no pointerdown: a SHORT press.
    const held = downAt === null ? 0 : performance.now() - downAt;
    cancel();
    event.preventDefault();
    press(held >= 1000 ? "LONG" : "SHORT");
  });
}
