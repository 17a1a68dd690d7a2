// The media region of a media screen (SetMediaClockTimer, MOBILE_API.xml): the clock as a running
// progress bar — position, duration, counting up or down, paused — and the transport buttons a
// media head unit puts under it (SEEKLEFT, PLAY_PAUSE with the app's indicator, SEEKRIGHT).
import { element } from "../dom.js";
import { holdToPress } from "./press.js";

/** `seconds` as m:ss (h:mm:ss from an hour). */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return h ? `${h}:${String(m).padStart(2, "0")}:${String(r).padStart(2, "0")}` : `${m}:${String(r).padStart(2, "0")}`;
}

/**
 * The clock's position now: `clock` is `{position, at, running, direction, rate, end}` (position in
 * seconds when read at `at`, a performance.now() time), held at 0 and at the end time.
 */
export function clockPosition(clock, now = performance.now()) {
  let value = clock.position + (clock.running ? (clock.direction * clock.rate * (now - clock.at)) / 1000 : 0);
  if (clock.end != null) value = clock.direction < 0 ? Math.max(value, clock.end) : Math.min(value, clock.end);
  return Math.max(0, value);
}

// Transport symbols as SVG paths (a 24-unit box): fonts lack some of the media symbols.
const ICONS = {
  SEEKLEFT: "M6 5h2.5v14H6zM20 5v14L9.5 12z",
  SEEKRIGHT: "M15.5 5H18v14h-2.5zM4 5l10.5 7L4 19z",
  PLAY: "M7 4.5v15L19.5 12z",
  PAUSE: "M6.5 5h4v14h-4zM13.5 5h4v14h-4z",
  STOP: "M6 6h12v12H6z",
  PLAY_PAUSE: "M3 5v14l8-7zM13 5h3v14h-3zM18 5h3v14h-3z",
};

function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name] ?? ICONS.PLAY_PAUSE);
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

export function mediaRegion(model, ctx) {
  const clock = model.mediaClock;
  const region = element("div", { className: "hu-region hu-media" });
  if (clock) {
    const bar = element("div", { className: "hu-progress", role: "progressbar", "aria-label": "media clock" }, element("div", { className: "fill" }));
    const node = element("div", { className: "hu-clock", id: "hmi-clock", dataset: { running: String(clock.running) } },
      element("span", { className: "position" }), bar, element("span", { className: "end" }));
    node.clock = clock;
    paint(node);
    region.append(node);
  }
  // The play button shows what a press does, as the app's audioStreamingIndicator says.
  const indicator = clock?.indicator ?? "PLAY_PAUSE";
  const transport = element("div", { className: "hu-transport" });
  for (const [name, label, symbol] of [["SEEKLEFT", "Seek left", "SEEKLEFT"], ["PLAY_PAUSE", "Play/pause", indicator], ["SEEKRIGHT", "Seek right", "SEEKRIGHT"]]) {
    const button = element("button", { type: "button", className: "hu-transport-button", "aria-label": label, dataset: { button: name } }, icon(symbol));
    holdToPress(button, (mode) => ctx.driver.hardButton(name, mode));
    transport.append(button);
  }
  region.append(transport);
  return region;
}

/** Draws a clock element's position, duration and bar. */
function paint(node) {
  const clock = node.clock;
  const position = clockPosition(clock);
  node.querySelector(".position").textContent = clockText(position);
  node.querySelector(".end").textContent = clock.end != null ? clockText(clock.end) : "";
  // Counting down, the bar empties towards the end time; counting up, it fills towards it.
  const total = clock.direction < 0 ? clock.start ?? clock.position : clock.end;
  const fraction = total ? position / total : 0;
  node.querySelector(".fill").style.width = `${Math.min(100, Math.max(0, fraction * 100)).toFixed(2)}%`;
  node.querySelector(".hu-progress").setAttribute("aria-valuenow", String(Math.round(position)));
  node.dataset.position = String(Math.floor(position));
}

// One ticker for every clock on the page: a running clock moves twice a second.
setInterval(() => {
  for (const node of document.querySelectorAll(".hu-clock[data-running=true]")) if (node.clock) paint(node);
}, 500);
