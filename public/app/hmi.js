// The HMI preview (with --simulate): the app's screen as the simulated head unit shows it,
// redrawn after each RPC and notification: template, fields, graphic, soft buttons (press them),
// the running media clock, the menu, and an open alert or interaction (answer it).
import { $, element, report } from "./dom.js";

let current = null;
let context = null;
let clockTimer = null;
let drawing = Promise.resolve();
let lastDrawn = null;

export function init(ctx) {
  context = ctx;
}

export function select(app) {
  current = app;
  lastDrawn = null;
  redraw();
}

export function event(event) {
  // Requests and responses may change the screen; notifications (vehicle data at 10 Hz) do not.
  if ((event.type === "rpc" && event.data.type !== "notification") || ["hmiStatus", "connection"].includes(event.type)) redraw();
}


let redrawQueued = false;

function redraw() {
  if (!context?.simulated || !current || redrawQueued) return;
  // One draw queued at most: a burst of events (the history a selected app opens with) draws once.
  redrawQueued = true;
  drawing = drawing.then(() => {
    redrawQueued = false;
    return draw();
  }).catch(report);
}

async function draw() {
  const app = current;
  const [screen, resource] = await Promise.all([context.gw.simulator.screen(app.id), context.gw.request("GET", `/v1/simulator/apps/${encodeURIComponent(app.id)}`)]);
  if (app !== current) return;
  // Nothing changed: keep the elements (and what the user is about to click).
  const signature = JSON.stringify([app.id, screen, resource.hmiLevel, resource.menu, resource.choiceSets]);
  if (signature === lastDrawn) return;
  lastDrawn = signature;
  const show = screen.show ?? {};
  const root = $("hmi");
  const title = element("div", { className: "title" }, `${resource.appName} · ${screen.template} · ${resource.hmiLevel}${show.templateTitle ? ` · ${show.templateTitle}` : ""}`);
  const graphic = show.graphic ? element("div", { className: "graphic", title: "graphic" }, show.graphic.value) : "";
  const fields = element("div", { className: "fields", id: "hmi-fields" },
    ...["mainField1", "mainField2", "mainField3", "mainField4"].map((name) => element("div", { dataset: { field: name } }, show[name] ?? "")));
  const clock = element("div", { className: "clock", id: "hmi-clock" });
  const buttons = element("div", { className: "softbuttons" }, ...(show.softButtons ?? []).map((button) =>
    element("button", {
      type: "button", textContent: button.text ?? button.image?.value ?? `#${button.softButtonID}`,
      dataset: { softButtonId: button.softButtonID },
      onclick: () => context.gw.simulator.press("CUSTOM_BUTTON", { appID: app.id, softButtonID: button.softButtonID }).catch(report),
    })));
  const menu = resource.menu ?? { subMenus: [], commands: [] };
  const names = [...menu.subMenus.map((m) => `▸ ${m.menuName}`), ...menu.commands.filter((c) => c.menuParams && !c.menuParams.parentID).map((c) => c.menuParams.menuName)];
  const menuLine = element("div", { className: "menu" }, names.length ? `Menu: ${names.join(" · ")}` : "");
  const parts = [graphic, title, fields, clock, buttons, menuLine];
  if (screen.overlay) parts.push(overlay(app, screen.overlay, resource.choiceSets ?? []));
  root.replaceChildren(...parts);
  runClock(screen.mediaClock);
}

function overlay(app, open, choiceSets) {
  const p = open.parameters ?? {};
  const box = element("div", { className: "overlay", id: "hmi-overlay", role: "dialog" },
    element("strong", {}, open.function), " ",
    element("div", {}, [p.alertText1, p.alertText2, p.alertText3, p.initialText, p.scrollableMessageBody, p.sliderHeader].filter(Boolean).join(" · ")));
  const answer = (body) => () => context.gw.simulator.answer(app.id, body).then(redraw, report);
  const actions = element("div", { className: "softbuttons" });
  if (open.function === "PerformInteraction") {
    if (p.interactionLayout === "KEYBOARD") {
      const input = element("input", { "aria-label": "typed text", id: "hmi-keyboard" });
      actions.append(input, element("button", { type: "button", textContent: "Enter", onclick: () => answer({ text: input.value })() }));
    }
    const sets = new Map(choiceSets.map((set) => [set.interactionChoiceSetID, set.choiceSet ?? []]));
    for (const id of p.interactionChoiceSetIDList ?? []) {
      for (const choice of sets.get(id) ?? []) {
        actions.append(element("button", { type: "button", textContent: choice.menuName, onclick: answer({ choiceID: choice.choiceID }) }));
      }
    }
  }
  for (const button of p.softButtons ?? []) {
    actions.append(element("button", { type: "button", textContent: button.text ?? `#${button.softButtonID}`,
      onclick: () => context.gw.simulator.press("CUSTOM_BUTTON", { appID: app.id, softButtonID: button.softButtonID }).then(redraw, report) }));
  }
  actions.append(element("button", { type: "button", textContent: "Dismiss", onclick: answer({ result: "ABORTED" }) }));
  box.append(actions);
  return box;
}

function runClock(clock) {
  clearInterval(clockTimer);
  const node = $("hmi-clock");
  if (!clock || !node) return;
  const started = Date.now();
  const direction = clock.updateMode === "COUNTDOWN" ? -1 : 1;
  const position = () => Math.max(0, (clock.currentSeconds ?? clock.positionSeconds ?? 0) + (clock.running ? (direction * (Date.now() - started)) / 1000 : 0));
  const format = (s) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
  const end = clock.endTime ? (clock.endTime.hours ?? 0) * 3600 + (clock.endTime.minutes ?? 0) * 60 + (clock.endTime.seconds ?? 0) : null;
  const tick = () => (node.textContent = `${format(position())}${end ? ` / ${format(end)}` : ""}${clock.running ? " ▶" : " ⏸"}`);
  tick();
  if (clock.running) clockTimer = setInterval(tick, 500);
}
