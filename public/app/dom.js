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

/** Reports a failure where the user looks: the status line. */
export function report(error) {
  const text = error instanceof GatewayProblem ? `${error.status} ${error.code}: ${error.message}` : String(error);
  $("status").textContent = text;
  console.error(error);
}
