// The simulator panel (with --simulate): HMI level, hardware buttons (with a hint and a
// subscription when no app was listening), speed and rpm sliders that start at the vehicle's
// values and follow them until moved (an override, which can be released back to the feed), the
// vehicle data feed (a generated drive or a replayed trace: pause, play, restart) updating live,
// driver distraction, fault injection. With --hmi the same controls drive a real SDL Core through
// the headless HMI (/v1/hmi): HMI level, buttons, vehicle data and driver distraction; a real Core
// has no feed to pause and no faults to inject.
import { $, element, failNear } from "./dom.js";

let context = null;
let driver = null;
const BUTTONS = ["OK", "PLAY_PAUSE", "SEEKLEFT", "SEEKRIGHT", "TUNEUP", "TUNEDOWN", "PRESET_1", "SEARCH"];
/** How often the panel, while shown, reads the vehicle data and the feed. */
const FOLLOW_MS = 1000;
const SLIDERS = { speed: "km/h", rpm: "rpm" };
/** The items this page overrode (until released). */
const overridden = new Set();

export function init(ctx) {
  context = ctx;
  if (!ctx.simulated && !ctx.headless) {
    $("view-simulator").replaceChildren(element("p", { className: "muted", textContent: "Start the gateway with --simulate to drive a simulated head unit, or with --hmi ws://CORE:8087 to drive SDL Core through the headless HMI." }));
    return;
  }
  // The simulator's control API or the headless HMI's: the same operations.
  driver = ctx.simulated ? ctx.gw.simulator : ctx.gw.hmi;
  const result = (text) => {
    $("sim-result").textContent = text;
    $("sim-result").classList.remove("muted");
  };
  const appName = () => context.app?.id ?? "no app";
  $("sim-hmi-set").onclick = () => {
    if (!context.app) return failNear($("sim-hmi-set"))(new Error("register or pick an app first"));
    driver.setHMILevel(context.app.id, $("sim-hmi").value)
      .then((answer) => result(`${appName()} is now ${answer?.hmiLevel ?? $("sim-hmi").value}`), failNear($("sim-hmi-set")));
  };
  $("sim-buttons").replaceChildren(...BUTTONS.map((name) => {
    const button = element("button", { type: "button", textContent: name, dataset: { button: name, needs: "control" } });
    button.onclick = () => driver.press(name, { mode: "SHORT" }).then((answer) => pressed(name, answer, result), failNear(button));
    return button;
  }));
  for (const [name, unit] of Object.entries(SLIDERS)) {
    const slider = $(`sim-${name}`);
    slider.oninput = () => ($(`sim-${name}-value`).textContent = `${slider.value} ${unit}`);
    slider.onchange = () => {
      driver.vehicleData({ [name]: Number(slider.value) }).then(() => {
        overridden.add(name);
        $(`sim-${name}-release`).hidden = false;
        result(`${name} held at ${slider.value} ${unit} (an override: Release gives it back to the feed)`);
      }, failNear(slider));
    };
    $(`sim-${name}-release`).onclick = () => driver.vehicleData({ [name]: null }).then((values) => {
      overridden.delete(name);
      $(`sim-${name}-release`).hidden = true;
      result(`${name} follows the feed again${values?.[name] !== undefined ? ` (now ${Math.round(values[name])} ${unit})` : ""}`);
      follow();
    }, failNear($(`sim-${name}-release`)));
  }
  $("sim-dd").onchange = () => driver.driverDistraction($("sim-dd").checked ? "DD_ON" : "DD_OFF")
    .then((answer) => result(`Driver distraction ${answer?.state === "DD_ON" ? "on" : "off"} (${answer?.state})`), failNear($("sim-dd")));
  if (!ctx.simulated) {
    $("sim-feed-row").hidden = true;
    $("sim-fault-row").hidden = true;
  } else {
    const feed = (change, near) => driver.setFeed(change).then(showFeed, failNear(near));
    $("sim-feed-pause").onclick = () => feed({ playing: false }, $("sim-feed-pause"));
    $("sim-feed-play").onclick = () => feed({ playing: true }, $("sim-feed-play"));
    $("sim-feed-restart").onclick = () => feed({ restart: true, playing: true }, $("sim-feed-restart"));
    $("sim-fault-add").onclick = () => {
      const kind = $("sim-fault-kind").value;
      const fault = { function: $("sim-fault-fn").value.trim(), ...(kind === "delay" ? { delayMs: 3000 } : kind === "hang" ? { hang: true } : kind === "drop" ? { dropConnection: true } : { resultCode: kind }) };
      driver.addFault(fault).then(() => (result(`Fault injected: ${describeFault(fault)}`), faults()), failNear($("sim-fault-add")));
    };
    $("sim-fault-clear").onclick = () => driver.clearFaults().then(() => (result("Faults cleared"), faults()), failNear($("sim-fault-clear")));
    faults();
  }
  follow();
  // While the panel shows, the sliders and the feed follow the head unit (a slider being moved or
  // overridden stays as it is).
  setInterval(() => {
    if (!$("view-simulator").hidden && document.visibilityState === "visible") follow();
  }, FOLLOW_MS);
}

/** A press's answer in words; none notified: a hint, and a subscription for the selected app. */
function pressed(name, answer, result) {
  const hint = $("sim-press-hint");
  const notified = answer?.notified ?? [];
  result(notified.length ? `${name} pressed (${answer.mode}): notified ${notified.join(", ")}` : `${name} pressed (${answer?.mode ?? "SHORT"}): no app was notified`);
  hint.hidden = notified.length > 0;
  if (notified.length) return;
  const app = context.app;
  const text = element("span", { textContent: `No app is subscribed to ${name} (and in FULL or LIMITED): the press reached nobody. ` });
  if (!app) return hint.replaceChildren(text, "Register an app first.");
  const subscribe = element("button", { type: "button", textContent: `Subscribe ${app.id} to ${name}`, dataset: { needs: "control", subscribe: name } });
  subscribe.onclick = () => app.subscriptions.button(name).then(() => {
    hint.replaceChildren(`${app.id} is subscribed to ${name}: press it again.`);
  }, failNear(subscribe));
  hint.replaceChildren(text, subscribe);
}

const describeFault = (fault) => `${fault.function} ${fault.delayMs ? `answers after ${fault.delayMs / 1000} s` : fault.hang ? "never answers" : fault.dropConnection ? "drops the link" : `answers ${fault.resultCode}`}`;

function faults() {
  driver.faults().then((list) => {
    $("sim-faults").replaceChildren(...(list.length ? list.map((fault) => element("li", { textContent: fault.burst ? `a burst of ${fault.burst.notification}` : describeFault(fault) }))
      : [element("li", { textContent: "No faults: every request is answered as the head unit would." })]));
  }, () => {});
}

function showFeed(status) {
  const feed = $("sim-feed");
  feed.textContent = status.source === "none" ? "no feed" : `${status.source} ${status.playing ? "playing" : "paused"} at ${status.elapsedSeconds.toFixed(1)} s`;
  feed.classList.toggle("on", Boolean(status.playing));
}

/** Reads the vehicle's values into the sliders (those not being moved nor overridden), and the feed. */
function follow() {
  driver.currentVehicleData?.().then((values) => {
    for (const [name, unit] of Object.entries(SLIDERS)) {
      const slider = $(`sim-${name}`);
      if (typeof values?.[name] !== "number" || document.activeElement === slider || overridden.has(name)) continue;
      slider.value = String(Math.round(values[name]));
      $(`sim-${name}-value`).textContent = `${Math.round(values[name])} ${unit}`;
    }
  }, () => {});
  if (context.simulated) driver.feed().then(showFeed, () => {});
}
