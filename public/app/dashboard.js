// The dashboard: status badges, vehicle data (values in units, a plot per numeric item over the
// last minute with its range and a time axis, the GPS track), the app's events in words, the
// permission table. Everything from the app's events.
import { $, element, failNear, report } from "./dom.js";

const WINDOW_MS = 60000;
const history = new Map(); // item → [[time, value]] of the last minute, by the events' own time
const track = [];
const LOGGED = new Set(["connection", "hmiStatus", "appState", "buttonPress", "buttonEvent", "command", "softButton", "mediaButton", "menuSelection", "choice", "keyboardInput", "driverDistraction", "lockScreen", "gap"]);
const EVENTS_SHOWN = 200;
const UNITS = { speed: "km/h", rpm: "rpm", fuelLevel: "%", engineTorque: "Nm", accPedalPosition: "%", steeringWheelAngle: "°",
  externalTemperature: "°C", odometer: "km", engineOilLife: "%", instantFuelConsumption: "l/h", fuelRange: "km" };
let state = {};

export function select(app) {
  state = {};
  history.clear();
  track.length = 0;
  $("events").replaceChildren();
  $("vehicle").tBodies[0].replaceChildren(placeholder());
  $("gps-box").hidden = true;
  app.get().then((resource) => {
    state = { connection: resource.connection, hmiLevel: resource.hmiLevel, audioStreamingState: resource.audioStreamingState,
      systemContext: resource.systemContext, appState: resource.appState, driverDistraction: resource.driverDistraction, lockScreen: resource.lockScreen };
    badges();
  }, report);
  app.capabilities().then((capabilities) => permissions(capabilities.permissions), report);
  $("subscribe-speed").onclick = () => app.subscriptions.vehicleData(["speed", "rpm", "fuelLevel", "gps"]).catch(failNear($("subscribe-speed")));
}

const placeholder = () => element("tr", { className: "placeholder" }, element("td", { colSpan: 3, className: "muted", textContent: "No vehicle data yet: subscribe to see it." }));

export function event(event) {
  const { type, data } = event;
  if (LOGGED.has(type)) logEvent(event);
  if (type === "connection") state.connection = data.state;
  if (type === "hmiStatus") Object.assign(state, data);
  if (type === "appState") state.appState = data.to;
  if (type === "driverDistraction") state.driverDistraction = data.state;
  if (type === "lockScreen") state.lockScreen = data.status;
  if (type === "permissions") permissions(data);
  if (type === "vehicleData") vehicle(data, event.time ? Date.parse(event.time) : Date.now());
  badges();
}

/** `14:02:03.123  hmiStatus  FULL · AUDIBLE · MAIN`, newest first. */
function logEvent(event) {
  const time = event.time ? new Date(event.time) : new Date();
  const clock = `${time.toTimeString().slice(0, 8)}.${String(time.getMilliseconds()).padStart(3, "0")}`;
  const line = element("li", { dataset: { seq: String(event.seq ?? ""), type: event.type }, title: JSON.stringify(event.data) },
    element("time", { dateTime: event.time ?? time.toISOString(), textContent: clock }), " ",
    element("span", { className: "type", textContent: event.type }), " ",
    element("span", { className: "what", textContent: summary(event.type, event.data ?? {}) }));
  $("events").prepend(line);
  while ($("events").children.length > EVENTS_SHOWN) $("events").lastElementChild.remove();
}

/** An event's data in words. */
function summary(type, data) {
  const join = (...values) => values.filter((value) => value !== undefined && value !== null && value !== "" && value !== false).join(" · ");
  switch (type) {
    case "connection": return join(data.state, data.detail);
    case "hmiStatus": return join(data.hmiLevel, data.audioStreamingState, data.systemContext, data.videoStreamingState);
    case "appState": return `${data.from ?? "?"} → ${data.to ?? "?"}${data.lifecycle?.length ? ` (${data.lifecycle.join(", ")})` : ""}`;
    case "buttonPress": return join(data.buttonName, data.buttonPressMode, data.customButtonID !== undefined && `button ${data.customButtonID}`);
    case "buttonEvent": return join(data.buttonName, data.buttonEventMode, data.customButtonID !== undefined && `button ${data.customButtonID}`);
    case "driverDistraction": return join(data.state);
    case "lockScreen": return join(data.status);
    case "gap": return `${data.missed ?? "some"} events missed`;
    default: return Object.entries(data).filter(([, value]) => value === null || typeof value !== "object").map(([key, value]) => `${key} ${value}`).join(" · ") || JSON.stringify(data);
  }
}

function badges() {
  const entries = [["connection", state.connection], ["app", state.appState], ["HMI", state.hmiLevel], ["audio", state.audioStreamingState],
    ["context", state.systemContext], ["distraction", state.driverDistraction], ["lock screen", state.lockScreen]];
  $("badges").replaceChildren(...entries.filter(([, value]) => value !== undefined && value !== null).map(([name, value]) => {
    const tone = ["registered", "FULL", "active", "AUDIBLE"].includes(value) ? "on" : ["DD_ON", "REQUIRED", "FORCED"].includes(value) ? "alarm" : "";
    return element("span", { className: `badge ${tone}` }, element("span", { className: "muted", textContent: `${name} ` }), value);
  }));
}

const round = (value, digits = 1) => Number(value.toFixed(digits)).toLocaleString("en-US", { maximumFractionDigits: digits });

/** A vehicle data value in words: units, GPS as latitude/longitude with 5 decimals. */
function format(name, value) {
  if (typeof value === "number") return `${round(value)}${UNITS[name] ? ` ${UNITS[name]}` : ""}`;
  if (name === "gps" && value && typeof value.latitudeDegrees === "number") {
    const lat = `${Math.abs(value.latitudeDegrees).toFixed(5)}° ${value.latitudeDegrees < 0 ? "S" : "N"}`;
    const lon = `${Math.abs(value.longitudeDegrees).toFixed(5)}° ${value.longitudeDegrees < 0 ? "W" : "E"}`;
    return [`${lat}, ${lon}`, value.heading !== undefined && `heading ${round(value.heading, 0)}°`, value.speed !== undefined && `${round(value.speed)} km/h`].filter(Boolean).join(" · ");
  }
  if (value && typeof value === "object") return Object.entries(value).map(([key, item]) => `${key} ${typeof item === "object" ? "…" : item}`).join(" · ");
  return String(value);
}

function vehicle(data, time) {
  for (const [name, value] of Object.entries(data)) {
    if (name === "gps" && value && typeof value === "object") {
      track.push([value.longitudeDegrees, value.latitudeDegrees]);
      if (track.length > 600) track.shift();
      drawTrack(value);
    }
    let row = document.getElementById(`vd-${name}`);
    if (!row) {
      $("vehicle").tBodies[0].querySelector(".placeholder")?.remove();
      row = $("vehicle").tBodies[0].insertRow();
      row.id = `vd-${name}`;
      row.insertCell().textContent = name;
      const cell = row.insertCell();
      cell.className = "value";
      // A number has its plot; anything else (the GPS, a struct) has the room of both columns.
      if (typeof value === "number") {
        const plot = row.insertCell();
        plot.className = "plot";
        plot.append(element("canvas", { className: "spark", width: 480, height: 64, "aria-label": `${name} over the last minute`, role: "img" }));
      } else {
        cell.colSpan = 2;
      }
    }
    row.cells[1].textContent = format(name, value);
    row.cells[1].title = JSON.stringify(value);
    row.dataset.value = typeof value === "object" ? JSON.stringify(value) : String(value);
    if (typeof value === "number") {
      const points = history.get(name) ?? [];
      points.push([time, value]);
      points.sort((a, b) => a[0] - b[0]);
      const newest = points[points.length - 1][0];
      while (points.length && points[0][0] < newest - WINDOW_MS) points.shift();
      history.set(name, points);
      row.dataset.points = String(points.length);
      const canvas = row.cells[2]?.querySelector("canvas");
      if (canvas) plot(canvas, points, newest, UNITS[name] ?? "");
    }
  }
}

/** A plot of the last minute: the line, its min and max, and a time axis (−60 s … the newest). */
function plot(canvas, points, newest, unit) {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(120, canvas.clientWidth || 240);
  const height = Math.max(40, canvas.clientHeight || 56);
  if (canvas.width !== Math.round(width * ratio)) canvas.width = Math.round(width * ratio);
  if (canvas.height !== Math.round(height * ratio)) canvas.height = Math.round(height * ratio);
  const context = canvas.getContext("2d");
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, width, height);
  const style = getComputedStyle(document.documentElement);
  const muted = style.getPropertyValue("--muted").trim();
  const values = points.map(([, v]) => v);
  const [min, max] = [Math.min(...values), Math.max(...values)];
  context.font = "10px system-ui, sans-serif";
  const labels = [`${round(max)} ${unit}`.trim(), `${round(min)} ${unit}`.trim()];
  // The plot starts right of its widest label.
  const [left, right, top, bottom] = [Math.ceil(Math.max(...labels.map((label) => context.measureText(label).width))) + 8, 4, 6, height - 14];
  context.fillStyle = muted;
  context.strokeStyle = style.getPropertyValue("--line").trim();
  context.lineWidth = 1;
  // The frame of the plot area and the time axis: −60 s, −30 s, the newest value's time.
  context.strokeRect(left + 0.5, top + 0.5, width - left - right - 1, bottom - top);
  context.textBaseline = "top";
  for (const [fraction, label, align] of [[0, "−60 s", "left"], [0.5, "−30 s", "center"], [1, "now", "right"]]) {
    context.textAlign = align;
    context.fillText(label, left + fraction * (width - left - right), bottom + 2);
  }
  context.textAlign = "right";
  context.textBaseline = "top";
  if (max !== min) {
    context.fillText(labels[0], left - 4, top);
    context.textBaseline = "bottom";
    context.fillText(labels[1], left - 4, bottom);
  } else {
    context.textBaseline = "middle";
    context.fillText(labels[1], left - 4, (top + bottom) / 2);
  }
  if (!points.length) return;
  context.strokeStyle = style.getPropertyValue("--accent").trim();
  context.lineWidth = 1.5;
  context.beginPath();
  points.forEach(([time, value], index) => {
    const x = left + (width - left - right) * (1 - (newest - time) / WINDOW_MS);
    const y = bottom - 2 - (bottom - top - 4) * (max === min ? 0.5 : (value - min) / (max - min));
    index ? context.lineTo(x, y) : context.moveTo(x, y);
  });
  context.stroke();
}

function drawTrack(latest) {
  $("gps-box").hidden = false;
  const xs = track.map(([x]) => x), ys = track.map(([, y]) => y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = (v, a, b, size) => (b === a ? size / 2 : ((v - a) / (b - a)) * (size - 10) + 5);
  const points = track.map(([x, y]) => [scale(x, x0, x1, 200).toFixed(1), (120 - scale(y, y0, y1, 120)).toFixed(1)]);
  $("gps").querySelector("polyline").setAttribute("points", points.map((point) => point.join(",")).join(" "));
  // The car: where the track ends.
  const [cx, cy] = points[points.length - 1];
  const car = $("gps").querySelector("circle") ?? $("gps").appendChild(document.createElementNS("http://www.w3.org/2000/svg", "circle"));
  Object.entries({ cx, cy, r: 3 }).forEach(([key, value]) => car.setAttribute(key, value));
  $("gps-caption").textContent = `${track.length} ${track.length === 1 ? "fix" : "fixes"}, last ${format("gps", latest).split(" · ")[0]}`;
}

function permissions(table) {
  // The permission table: RPC name → {allowed: [HMI levels], userDisallowed, parameters, requireEncryption}.
  const rows = Object.entries(table ?? {}).sort(([a], [b]) => a.localeCompare(b));
  $("permissions").tBodies[0].replaceChildren(...rows.map(([name, item]) => {
    const row = document.createElement("tr");
    row.insertCell().textContent = name;
    row.insertCell().textContent = (item.allowed ?? []).join(", ") || "none";
    return row;
  }));
}
