// The simulator panel (with --simulate): HMI level, hardware buttons, a speed/rpm drive control,
// the vehicle data feed (a generated drive or a replayed trace: pause, play, restart), driver
// distraction, fault injection. With --hmi the same controls drive a real SDL Core through the
// headless HMI (/v1/hmi): HMI level, buttons, vehicle data and driver distraction; a real Core has
// no feed to pause and no faults to inject.
import { $, report } from "./dom.js";

let context = null;
const BUTTONS = ["OK", "PLAY_PAUSE", "SEEKLEFT", "SEEKRIGHT", "TUNEUP", "TUNEDOWN", "PRESET_1", "SEARCH"];

export function init(ctx) {
  context = ctx;
  if (!ctx.simulated && !ctx.headless) {
    $("view-simulator").replaceChildren(Object.assign(document.createElement("p"), { className: "muted", textContent: "Start the gateway with --simulate to drive a simulated head unit, or with --hmi ws://CORE:8087 to drive SDL Core through the headless HMI." }));
    $("view-hmi").querySelector("p")?.replaceChildren("The HMI preview needs a simulated head unit (--simulate).");
    return;
  }
  // The simulator's control API or the headless HMI's: the same operations.
  const driver = ctx.simulated ? ctx.gw.simulator : ctx.gw.hmi;
  const show = (value) => ($("sim-result").textContent = JSON.stringify(value, null, 2));
  const run = (promise) => promise.then(show, report);
  $("sim-hmi-set").onclick = () => context.app && run(driver.setHMILevel(context.app.id, $("sim-hmi").value));
  $("sim-buttons").replaceChildren(...BUTTONS.map((name) => {
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: name, onclick: () => run(driver.press(name, { mode: "SHORT" })) });
    button.dataset.button = name;
    return button;
  }));
  const drive = () => {
    $("sim-drive").textContent = `${$("sim-speed").value} km/h · ${$("sim-rpm").value} rpm`;
    run(driver.vehicleData({ speed: Number($("sim-speed").value), rpm: Number($("sim-rpm").value) }));
  };
  $("sim-speed").onchange = drive;
  $("sim-rpm").onchange = drive;
  $("sim-dd").onchange = () => run(driver.driverDistraction($("sim-dd").checked ? "DD_ON" : "DD_OFF"));
  if (!ctx.simulated) {
    $("sim-feed-row").hidden = true;
    $("sim-fault-row").hidden = true;
    $("view-hmi").querySelector("p")?.replaceChildren("The HMI preview shows the simulated head unit (--simulate); with --hmi, GET /v1/hmi/apps/{id}/screen has what Core showed.");
    return;
  }
  const feed = (body) => context.gw.request(body ? "PUT" : "GET", "/v1/simulator/feed", body).then((status) => {
    $("sim-feed").textContent = `${status.source} ${status.playing ? "playing" : "paused"} at ${status.elapsedSeconds.toFixed(1)} s`;
  }, report);
  $("sim-feed-pause").onclick = () => feed({ playing: false });
  $("sim-feed-play").onclick = () => feed({ playing: true });
  $("sim-feed-restart").onclick = () => feed({ restart: true, playing: true });
  feed();
  $("sim-fault-add").onclick = () => {
    const kind = $("sim-fault-kind").value;
    const fault = { function: $("sim-fault-fn").value.trim(), ...(kind === "delay" ? { delayMs: 3000 } : kind === "hang" ? { hang: true } : kind === "drop" ? { dropConnection: true } : { resultCode: kind }) };
    run(context.gw.request("POST", "/v1/simulator/faults", fault));
  };
  $("sim-fault-clear").onclick = () => run(context.gw.request("DELETE", "/v1/simulator/faults"));
}
