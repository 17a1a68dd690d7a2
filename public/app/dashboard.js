// The dashboard: status badges, vehicle data with a plot per numeric item and the GPS track, the
// button and command events, the permission table. Everything from the app's events.
import { $, report } from "./dom.js";

const history = new Map(); // item → [[time, value]] of the last minute
const track = [];
const LOGGED = new Set(["connection", "hmiStatus", "appState", "buttonPress", "buttonEvent", "command", "softButton", "mediaButton", "menuSelection", "choice", "keyboardInput", "driverDistraction", "lockScreen", "gap"]);
let state = {};

export function select(app) {
  state = {};
  history.clear();
  track.length = 0;
  $("events").textContent = "";
  $("vehicle").tBodies[0].replaceChildren();
  app.get().then((resource) => {
    state = { connection: resource.connection, hmiLevel: resource.hmiLevel, audioStreamingState: resource.audioStreamingState,
      systemContext: resource.systemContext, appState: resource.appState, driverDistraction: resource.driverDistraction, lockScreen: resource.lockScreen };
    badges();
  }, report);
  app.capabilities().then((capabilities) => permissions(capabilities.permissions), report);
  $("subscribe-speed").onclick = () => app.subscriptions.vehicleData(["speed", "rpm", "fuelLevel", "gps"]).catch(report);
}

export function event(event) {
  const { type, data } = event;
  if (LOGGED.has(type)) $("events").textContent = `${event.seq} ${type} ${JSON.stringify(data)}\n${$("events").textContent}`.slice(0, 20000);
  if (type === "connection") state.connection = data.state;
  if (type === "hmiStatus") Object.assign(state, data);
  if (type === "appState") state.appState = data.to;
  if (type === "driverDistraction") state.driverDistraction = data.state;
  if (type === "lockScreen") state.lockScreen = data.status;
  if (type === "permissions") permissions(data);
  if (type === "vehicleData") vehicle(data);
  badges();
}

function badges() {
  const entries = [["connection", state.connection], ["app", state.appState], ["HMI", state.hmiLevel], ["audio", state.audioStreamingState],
    ["context", state.systemContext], ["distraction", state.driverDistraction], ["lock screen", state.lockScreen]];
  $("badges").replaceChildren(...entries.filter(([, value]) => value !== undefined && value !== null).map(([name, value]) => {
    const badge = document.createElement("span");
    badge.className = `badge ${["registered", "FULL", "active", "AUDIBLE"].includes(value) ? "on" : ""} ${["DD_ON", "REQUIRED", "FORCED"].includes(value) ? "alarm" : ""}`;
    badge.textContent = `${name}: ${value}`;
    return badge;
  }));
}

function vehicle(data) {
  const now = Date.now();
  for (const [name, value] of Object.entries(data)) {
    if (name === "gps" && typeof value === "object") {
      track.push([value.longitudeDegrees, value.latitudeDegrees]);
      if (track.length > 600) track.shift();
      drawTrack();
    }
    let row = document.getElementById(`vd-${name}`);
    if (!row) {
      row = $("vehicle").tBodies[0].insertRow();
      row.id = `vd-${name}`;
      row.insertCell().textContent = name;
      row.insertCell();
      const canvas = document.createElement("canvas");
      canvas.className = "spark";
      canvas.width = 240;
      canvas.height = 40;
      canvas.setAttribute("aria-label", `${name} over the last minute`);
      row.insertCell().append(canvas);
    }
    row.cells[1].textContent = typeof value === "object" ? JSON.stringify(value) : String(value);
    if (typeof value === "number") {
      const points = history.get(name) ?? [];
      points.push([now, value]);
      while (points.length && points[0][0] < now - 60000) points.shift();
      history.set(name, points);
      row.dataset.points = String(points.length);
      spark(row.cells[2].firstChild, points, now);
    }
  }
}

function spark(canvas, points, now) {
  const context = canvas.getContext("2d");
  context.clearRect(0, 0, canvas.width, canvas.height);
  if (points.length < 2) return;
  const values = points.map(([, v]) => v);
  const [min, max] = [Math.min(...values), Math.max(...values)];
  context.strokeStyle = getComputedStyle(document.documentElement).getPropertyValue("--accent");
  context.beginPath();
  points.forEach(([time, value], index) => {
    const x = canvas.width * (1 - (now - time) / 60000);
    const y = canvas.height - 2 - (canvas.height - 4) * (max === min ? 0.5 : (value - min) / (max - min));
    index ? context.lineTo(x, y) : context.moveTo(x, y);
  });
  context.stroke();
}

function drawTrack() {
  const xs = track.map(([x]) => x), ys = track.map(([, y]) => y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = (v, a, b, size) => (b === a ? size / 2 : ((v - a) / (b - a)) * (size - 10) + 5);
  $("gps").querySelector("polyline").setAttribute("points", track.map(([x, y]) => `${scale(x, x0, x1, 200).toFixed(1)},${(120 - scale(y, y0, y1, 120)).toFixed(1)}`).join(" "));
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
