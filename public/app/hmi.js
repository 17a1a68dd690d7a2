// The HMI preview: the head unit's screen as the driver sees it, drawn from what the head unit
// holds — the simulator's (`--simulate`) or, with a real SDL Core, the headless HMI's (`--hmi`) —
// with the same code. The app in FULL fills the screen (its template, images, soft buttons, media
// clock, menu and pop-ups; headunit/*.js draw them); with none in FULL the launcher shows every
// app. Clicks are the driver's: presses, menu picks, voice commands, answers, opening an app.
import { $, element, report } from "./dom.js";
import { ImageStore } from "./headunit/images.js";
import { launcher } from "./headunit/launcher.js";
import { menuSheet, sayPanel } from "./headunit/menu.js";
import { popup } from "./headunit/popups.js";
import { VideoPlayer } from "./headunit/projection.js";
import { schemeStyle, screenBody } from "./headunit/screen.js";
import { fromHMI, fromSimulator } from "./headunit/sources.js";

let source = null;
let gateway = null;
let images = null;
/** The live video of each app the head unit receives video from, by appID (headunit/projection.js). */
const players = new Map();
let selected = null;
let resolution = { width: 800, height: 480 };
let theme = matchMedia("(prefers-color-scheme: dark)").matches ? "night" : "day";
let menuPath = null;
let drawing = Promise.resolve();
let queued = false;
let lastDrawn = null;
let lastState = null;

export function init(ctx) {
  if (!ctx.simulated && !ctx.headless) {
    $("hmi").replaceChildren(element("p", { className: "muted" }, "The preview draws a head unit's screen: start the gateway with --simulate, or beside SDL Core with --core tcp://CORE:12345 --hmi ws://CORE:8087."));
    return;
  }
  gateway = ctx.gw;
  source = ctx.simulated ? fromSimulator(ctx.gw) : fromHMI(ctx.gw);
  images = new ImageStore((appID, name) => source.file(appID, name));
  // The head unit also changes without the selected app's events (another app, the driver, a
  // script): while the preview is on screen it looks again each second.
  setInterval(() => {
    if (!document.hidden && !$("view-hmi").hidden) redraw();
  }, 1000);
}

export function select(app) {
  selected = app;
  lastDrawn = null;
  app.capabilities().then((capabilities) => {
    const size = capabilities?.registration?.displayCapabilities?.screenParams?.resolution;
    if (size?.resolutionWidth && size?.resolutionHeight) resolution = { width: size.resolutionWidth, height: size.resolutionHeight };
    lastDrawn = null;
    redraw();
  }, () => {});
  redraw();
}

export function event(event) {
  // A file put again is fetched again.
  if (event.type === "rpc" && ["PutFile", "DeleteFile"].includes(event.data.function) && event.data.params?.syncFileName) {
    for (const app of lastState?.apps ?? []) images?.forget(app.appID, event.data.params.syncFileName);
  }
  // Requests and responses may change the screen; notifications (vehicle data at 10 Hz) do not.
  if ((event.type === "rpc" && event.data.type !== "notification") || ["hmiStatus", "connection"].includes(event.type)) redraw();
}

/** Draws again after what is drawing now; a burst of events draws once. */
function redraw() {
  if (!source || queued) return;
  queued = true;
  drawing = drawing.then(() => {
    queued = false;
    return draw();
  }).catch(report);
}

/** What the driver's clicks do, on the head unit of the app shown. */
function driverFor(model) {
  const appID = model?.appID;
  const after = (promise) => promise.then(() => redraw(), report);
  return {
    softButton: (softButtonID, mode) => after(source.press("CUSTOM_BUTTON", { appID, softButtonID, mode })),
    hardButton: (name, mode) => after(source.press(name, { appID, mode })),
    command: (cmdID, triggerSource) => after(source.command(appID, cmdID, triggerSource)),
    answer: (body) => after(source.answer(appID, body)),
    activate: (id) => after(source.activate(id)),
  };
}

async function draw() {
  const state = await source.load(selected?.id);
  lastState = state;
  // The launcher's clock: it draws again when the minute changes.
  const signature = JSON.stringify([state.signature, resolution, theme, menuPath, state.shown ? null : Math.floor(Date.now() / 60000)]);
  if (signature === lastDrawn) return;
  lastDrawn = signature;
  const model = state.shown;
  if (!model || !state.apps.some((app) => app.appID === model.appID)) menuPath = null;
  closeVideos(model);
  const ctx = {
    images,
    driver: driverFor(model),
    goHome: () => (menuPath = null, source.leave(model).then(redraw, report)),
    openMenu: () => openMenu([]),
    lockedOut: state.driverDistraction === "DD_ON",
    video: (shown) => videoOf(shown),
    menu: {
      open: (path) => openMenu(path),
      close: () => closeMenu(model),
      pick: (cmdID) => {
        menuPath = null;
        source.menuContext(model, false).catch(() => {});
        driverFor(model).command(cmdID, "MENU");
      },
    },
  };
  function openMenu(path) {
    if (menuPath === null) source.menuContext(model, true).catch(() => {});
    menuPath = path;
    redraw();
  }
  function closeMenu() {
    menuPath = null;
    source.menuContext(model, false).catch(() => {});
    redraw();
  }
  const screen = element("div", {
    className: "hu-screen",
    id: "hmi-screen",
    dataset: { template: model ? model.template : "LAUNCHER", theme, app: model?.appID ?? "" },
    style: `aspect-ratio: ${resolution.width} / ${resolution.height}; ${model ? schemeStyle(model, theme) : ""}`,
  });
  if (model) {
    const { header, body } = screenBody(model, ctx);
    screen.append(header, body);
    if (menuPath) screen.append(menuSheet(model, ctx, menuPath));
    if (ctx.lockedOut) screen.append(element("div", { className: "hu-lockout", role: "status" }, "Driving: the keyboard is locked"));
  } else {
    screen.append(launcher(state.apps, ctx));
  }
  // A pop-up of any app, over whatever the screen shows; the driver answers that app.
  if (state.popupOf) {
    const open = popup(state.popupOf, { ...ctx, driver: driverFor(state.popupOf) });
    if (open) screen.append(open);
  }
  // The bezel keeps the display's proportions at any width (its resolution, scaled to the window).
  const frame = element("div", { className: "hu-frame", style: `--hu-aspect: ${resolution.width / resolution.height}` }, screen);
  $("hmi").replaceChildren(toolbar(state, model), element("div", { className: "hu-stage" }, frame, model ? sayPanel(model, ctx) : ""));
}

/** The app's live video canvas: its player, opened on the head unit's feed the first time (again after it closed). */
function videoOf(model) {
  let player = players.get(model.appID);
  if (!player || player.closed) {
    player?.close();
    const url = new URL(gateway.base + source.videoFeed(model.appID), location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const touch = source.touch ? (body) => source.touch(model.appID, body) : null;
    player = new VideoPlayer({ url, protocols: gateway.token ? ["sdl-gateway.v1", `bearer.${gateway.token}`] : ["sdl-gateway.v1"], touch });
    players.set(model.appID, player);
  }
  return player.canvas;
}

/** Closes the players of apps no longer shown streaming (the feed socket and the decoder). */
function closeVideos(model) {
  for (const [appID, player] of players) {
    if (appID === model?.appID && model.videoStreaming) continue;
    player.close();
    players.delete(appID);
  }
}

/** Day and night, the screen's size, and the status line: app, HMI level, audio, system context. */
function toolbar(state, model) {
  const choice = (value, label) => element("button", {
    type: "button", "aria-pressed": String(theme === value), dataset: { theme: value },
    onclick: () => ((theme = value), redraw()),
  }, label);
  const status = model
    ? `${model.appName} · ${model.hmiLevel} · ${model.audioStreamingState ?? ""} · ${model.systemContext ?? ""}`
    : `${state.apps.length} app${state.apps.length === 1 ? "" : "s"} · none in FULL`;
  return element("div", { className: "hu-toolbar" },
    element("span", { className: "hu-theme", role: "group", "aria-label": "day or night" }, choice("day", "☀ Day"), choice("night", "☾ Night")),
    element("span", { className: "hu-status", id: "hmi-status" }, status),
    state.driverDistraction === "DD_ON" ? element("span", { className: "badge warn" }, "driver distraction on") : "",
    element("span", { className: "muted" }, `${resolution.width} × ${resolution.height}`));
}
