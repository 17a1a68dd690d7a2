// What every panel of the page shares: finding and building elements, and reporting a failure.
// No panel imports main.js (which imports the panels): they import this.
import { GatewayProblem } from "../sdl-gateway.js";

/** The element with `id`. */
export const $ = (id) => document.getElementById(id);

// Building elements: properties as properties, names with a dash (aria-label) as attributes,
// `dataset` into data-* attributes.
export function element(tag, { dataset, ...properties } = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(properties)) key.includes("-") ? node.setAttribute(key, value) : (node[key] = value);
  Object.assign(node.dataset, dataset ?? {});
  node.append(...children);
  return node;
}

/** How long a note stays (it also goes at the next click or submit). */
const NOTE_MS = 8000;

/** A failure in words: `403 forbidden: …` for a problem of the gateway. */
export function describeError(error) {
  if (error instanceof GatewayProblem) {
    const hint = error.code === "forbidden" ? " (this token is read-only)" : "";
    return `${error.status} ${error.code}: ${error.message}${hint}`;
  }
  return error?.message ?? String(error);
}

/**
 * Shows `text` where the action was: right after `near` (a button, a form, a row), as a note that
 * goes after a while or at the next action. Without `near`, at the bottom of the window.
 */
export function note(text, near, kind = "error") {
  const box = element("span", { className: `note ${kind}`, role: kind === "error" ? "alert" : "status", textContent: text });
  // In a row of controls, the note goes on a line of its own under them (the row keeps its order).
  const row = near?.closest?.(".row, .slider");
  if (row) {
    row.querySelectorAll(":scope > .note").forEach((old) => old.remove());
    row.append(box);
  } else if (near?.isConnected) {
    near.parentElement.querySelectorAll(":scope > .note").forEach((old) => old.remove());
    near.after(box);
  } else {
    $("notes").append(box);
  }
  setTimeout(() => box.remove(), NOTE_MS);
  return box;
}

/** Reports a failure next to `near` (the control that failed), or at the bottom of the window. */
export function report(error, near) {
  note(describeError(error), near instanceof Element ? near : null);
  console.error(error);
}

/** A `.catch` handler that reports next to `near`. */
export const failNear = (near) => (error) => report(error, near);

// The next action clears the notes of the last one.
for (const type of ["click", "submit"]) {
  document.addEventListener(type, (event) => {
    if (!event.target.closest?.(".note")) document.querySelectorAll(".note").forEach((old) => old.remove());
  }, true);
}
