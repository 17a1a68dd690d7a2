// The console: the app's traffic (the `rpc` events), colour-coded like SDL's RPC Builder
// (requests, successful responses, warnings/aborted/timed out, failures, notifications),
// filterable, each entry expandable to its JSON, responses with their round-trip time.
import { $ } from "./dom.js";

const LIMIT = 500;
const WARNINGS = new Set(["WARNINGS", "ABORTED", "TIMED_OUT", "RESUME_FAILED", "WRONG_LANGUAGE", "IGNORED"]);

export function init() {
  $("console-filter").oninput = filter;
  $("console-clear").onclick = () => $("console").replaceChildren();
}

export function select() {
  $("console").replaceChildren();
}

export function event(event) {
  if (event.type !== "rpc") return;
  const entry = event.data;
  const result = entry.params?.resultCode;
  const kind = entry.type === "notification" ? "notification" : entry.type === "request" ? "request"
    : result === "SUCCESS" ? "success" : WARNINGS.has(result) ? "warning" : "failure";
  const item = document.createElement("li");
  item.className = kind;
  item.dataset.function = entry.function;
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  const arrow = entry.direction === "sent" ? "→" : "←";
  summary.textContent = `${arrow} ${entry.function} ${entry.type}${result ? ` ${result}` : ""}${entry.latencyMs !== undefined ? ` · ${entry.latencyMs.toFixed(1)} ms` : ""} · #${entry.correlationID}`;
  const body = document.createElement("pre");
  body.textContent = JSON.stringify(entry.params, null, 2);
  details.append(summary, body);
  item.append(details);
  const list = $("console");
  list.prepend(item);
  while (list.children.length > LIMIT) list.lastElementChild.remove();
  filterOne(item);
}

function filterOne(item) {
  const needle = $("console-filter").value.trim().toLowerCase();
  item.hidden = Boolean(needle) && !item.textContent.toLowerCase().includes(needle);
}

function filter() {
  for (const item of $("console").children) filterOne(item);
}
