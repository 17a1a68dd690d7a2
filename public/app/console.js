// The console: the app's traffic (the `rpc` events), colour-coded like SDL's RPC Builder
// (requests, successful responses, warnings/aborted/timed out, failures, notifications), each
// entry labelled by kind and function, filterable, expandable to its JSON, responses with their
// round-trip time. A notification repeating (OnVehicleData at 10 Hz) is one entry with a count and
// the latest parameters; a function can be muted. While an entry is open, new entries wait (the
// open one stays where it is). The traffic exports as JSON lines.
import { $, element } from "./dom.js";

const LIMIT = 500;
/** The rpc events the export holds (the console shows at most LIMIT entries). */
const KEPT = 5000;
const WARNINGS = new Set(["WARNINGS", "ABORTED", "TIMED_OUT", "RESUME_FAILED", "WRONG_LANGUAGE", "IGNORED"]);

let traffic = []; // every rpc event received, oldest first (for the export)
let waiting = []; // entries that arrived while one was open
const muted = new Map(); // function → notifications dropped since muted
let appID = null;

export function init() {
  $("console-filter").oninput = filter;
  $("console-clear").onclick = clear;
  $("console-export").onclick = exportLines;
  $("console-resume").onclick = flush;
  // Closing the last open entry lets the waiting ones in.
  $("console").addEventListener("toggle", () => openEntry() || flush(), true);
}

export function select(app) {
  appID = app.id;
  clear();
}

function clear() {
  traffic = [];
  waiting = [];
  $("console").replaceChildren();
  showWaiting();
  count();
}

export function event(event) {
  if (event.type !== "rpc") return;
  traffic.push(event);
  if (traffic.length > KEPT) traffic.splice(0, traffic.length - KEPT);
  const entry = event.data;
  if (entry.type === "notification" && muted.has(entry.function)) {
    muted.set(entry.function, muted.get(entry.function) + 1);
    showMuted();
    return;
  }
  if (openEntry()) {
    waiting.push(event);
    showWaiting();
    return;
  }
  add(event);
  count();
}

/** The open entry, if any. */
const openEntry = () => $("console").querySelector("details[open]");

function add(event) {
  const entry = event.data;
  const list = $("console");
  // A notification repeating the newest entry's function joins it: a count, the latest values.
  const top = list.firstElementChild;
  if (entry.type === "notification" && top?.classList.contains("notification") && top.dataset.function === entry.function) {
    top.dataset.count = String(Number(top.dataset.count) + 1);
    fill(top, event);
    return;
  }
  const summary = element("summary", {}, element("span", { className: "line" }));
  // The mute button is made once: a repeating entry redraws its line, not the button under the pointer.
  if (entry.type === "notification") {
    const mute = element("button", { type: "button", className: "mute", textContent: "Mute", title: `Hide ${entry.function} from the console (it is still exported)` });
    mute.onclick = (click) => {
      click.preventDefault();
      muteFunction(entry.function);
    };
    summary.append(" ", mute);
  }
  const item = element("li", { className: kind(entry), dataset: { function: entry.function, count: "1" } }, element("details", {}, summary, element("pre")));
  fill(item, event);
  list.prepend(item);
  while (list.children.length > LIMIT) list.lastElementChild.remove();
  filterOne(item);
}

function kind(entry) {
  const result = entry.params?.resultCode;
  return entry.type === "notification" ? "notification" : entry.type === "request" ? "request"
    : result === "SUCCESS" ? "success" : WARNINGS.has(result) ? "warning" : "failure";
}

/** An entry's line: time, direction, function and kind, result, latency, the count of repeats. */
function fill(item, event) {
  const entry = event.data;
  const line = item.querySelector("summary > .line");
  const result = entry.params?.resultCode;
  const repeats = Number(item.dataset.count);
  const parts = [
    element("time", { textContent: clock(event.time) }),
    element("span", { className: "arrow", textContent: entry.direction === "sent" ? "→" : "←", title: entry.direction === "sent" ? "sent to the head unit" : "received from the head unit" }),
    element("span", { className: "fn", textContent: entry.function }),
    element("span", { className: "kind", textContent: entry.type }),
  ];
  if (result) parts.push(element("span", { className: "result", textContent: result }));
  if (entry.latencyMs !== undefined) parts.push(element("span", { className: "muted", textContent: `${entry.latencyMs.toFixed(1)} ms` }));
  // A notification carries a placeholder correlation id (0xFFFFFFFF, docs/protocol.md §k): only requests and responses show theirs.
  if (entry.type !== "notification" && entry.correlationID !== undefined) parts.push(element("span", { className: "muted", textContent: `#${entry.correlationID}` }));
  if (repeats > 1) parts.push(element("span", { className: "badge repeat", textContent: `×${repeats}`, title: `${repeats} in a row; the latest shown` }));
  line.replaceChildren(...parts.flatMap((part, index) => (index ? [" ", part] : [part])));
  item.querySelector("pre").textContent = JSON.stringify(entry.params ?? {}, null, 2);
}

const clock = (time) => {
  const date = time ? new Date(time) : new Date();
  return `${date.toTimeString().slice(0, 8)}.${String(date.getMilliseconds()).padStart(3, "0")}`;
};

function muteFunction(name) {
  muted.set(name, 0);
  for (const item of [...$("console").children]) if (item.dataset.function === name && item.classList.contains("notification")) item.remove();
  showMuted();
  count();
}

/** The muted functions as chips (each updated in place: a click on one never meets a redrawn chip). */
function showMuted() {
  const row = $("console-muted");
  row.hidden = muted.size === 0;
  if (!row.firstElementChild) row.append(element("span", { className: "muted", textContent: "Muted:" }));
  for (const chip of row.querySelectorAll("button.chip")) if (!muted.has(chip.dataset.function)) chip.remove();
  for (const [name, dropped] of muted) {
    let chip = row.querySelector(`button.chip[data-function="${CSS.escape(name)}"]`);
    if (!chip) {
      chip = element("button", { type: "button", className: "chip", title: `Show ${name} again`, dataset: { function: name } },
        element("span", { className: "label" }), " ", element("span", { "aria-hidden": "true", textContent: "✕" }));
      chip.onclick = () => {
        muted.delete(name);
        showMuted();
      };
      row.append(chip);
    }
    chip.querySelector(".label").textContent = `${name}${dropped ? ` (${dropped} hidden)` : ""}`;
  }
}

function showWaiting() {
  const row = $("console-paused");
  row.hidden = waiting.length === 0;
  row.querySelector("span").textContent = `Paused while an entry is open: ${waiting.length} new ${waiting.length === 1 ? "entry waits" : "entries wait"}.`;
}

/** Lets the waiting entries in (closing the open entry does it too). */
function flush() {
  for (const details of $("console").querySelectorAll("details[open]")) details.open = false;
  const pending = waiting;
  waiting = [];
  for (const event of pending) add(event);
  showWaiting();
  count();
}

function count() {
  $("console-count").textContent = `${traffic.length} ${traffic.length === 1 ? "message" : "messages"}`;
}

/** Downloads the traffic, oldest first, one rpc event (as the event stream has it) a line. */
function exportLines() {
  const blob = new Blob(traffic.map((event) => `${JSON.stringify(event)}\n`), { type: "application/x-ndjson" });
  const link = element("a", { href: URL.createObjectURL(blob), download: `${appID ?? "sdl-gateway"}-console-${new Date().toISOString().replaceAll(":", "-")}.jsonl` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
}

function filterOne(item) {
  const needle = $("console-filter").value.trim().toLowerCase();
  item.hidden = Boolean(needle) && !item.textContent.toLowerCase().includes(needle);
}

function filter() {
  for (const item of $("console").children) filterOne(item);
}
