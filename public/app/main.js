// The page: connects through the browser client, lists the apps, registers one, and hands the
// selected app's events to each view (dashboard, HMI preview, builder, console, files, simulator).
import { connect, GatewayProblem } from "../sdl-gateway.js";
import { $, report } from "./dom.js";
import * as dashboard from "./dashboard.js";
import * as hmi from "./hmi.js";
import * as builder from "./builder.js";
import * as consoleView from "./console.js";
import * as files from "./files.js";
import * as simulator from "./simulator.js";

const views = [dashboard, hmi, builder, consoleView, files, simulator];
const TOKEN_KEY = "sdl-gateway.token";
// Events a selected app's views open with: its recent history from the gateway's event ring (the
// console keeps as many), so a page opened after a script did its work shows that work.
const HISTORY = 500;
// The selected app's event listener; declared before the first await, which may select an app.
let unsubscribe = () => {};

const gw = await connect({
  token: sessionStorage.getItem(TOKEN_KEY) ?? undefined,
  askForToken: () => prompt("This sdl-gateway needs a token (kept for this tab only):"),
}).catch((error) => (report(error), null));

const context = { gw, app: null, simulated: false, headless: null };
if (gw) {
  if (gw.token) sessionStorage.setItem(TOKEN_KEY, gw.token);
  context.simulated = await gw.simulator.apps().then(() => true, () => false);
  // Without the simulator, a gateway with --hmi drives a real Core through its headless HMI.
  context.headless = context.simulated ? null : await gw.hmi.status().catch(() => null);
  const headUnit = context.simulated ? " · simulated head unit" : context.headless ? ` · SDL Core with the headless HMI (${context.headless.phase})` : "";
  $("status").textContent = `RPC spec ${gw.specVersion}${headUnit}`;
  for (const view of views) view.init?.(context);
  await refreshApps();
}

$("forget").onclick = () => {
  sessionStorage.removeItem(TOKEN_KEY);
  location.reload();
};

// Tabs: arrow keys move between them, as the ARIA tab pattern has it.
const tabs = [...document.querySelectorAll("[role=tab]")];
function selectTab(tab) {
  for (const other of tabs) {
    other.setAttribute("aria-selected", String(other === tab));
    other.tabIndex = other === tab ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = other !== tab;
  }
  tab.focus();
}
tabs.forEach((tab, index) => {
  tab.tabIndex = index === 0 ? 0 : -1;
  tab.onclick = () => selectTab(tab);
  tab.onkeydown = (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (step) selectTab(tabs[(index + step + tabs.length) % tabs.length]);
  };
});

/** Lists the apps and marks the selected one. */
export async function refreshApps() {
  let apps;
  try {
    apps = await gw.apps.list();
  } catch (error) {
    $("apps").textContent = error instanceof GatewayProblem ? `${error.status}: ${error.message}` : String(error);
    return;
  }
  $("apps").textContent = apps.map((a) => `${a.id}: ${a.connection} ${a.hmiLevel ?? ""} ${a.appState ?? ""}`).join("\n") || "no apps";
  const list = $("app-list");
  list.replaceChildren(...apps.map((a) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `${a.appName ?? a.id} (${a.id})`;
    button.setAttribute("aria-pressed", String(context.app?.id === a.id));
    button.onclick = () => select(a.id);
    item.append(button);
    return item;
  }));
  if (!context.app && apps.length) select(apps[0].id);
}

/** Makes `id` the app every view shows. */
function select(id) {
  unsubscribe();
  // The views start empty: the app's socket opens again, with the history.
  context.app?.close();
  context.app = gw.app(id);
  for (const view of views) view.select?.(context.app, context);
  unsubscribe = context.app.on("*", (data, event) => {
    for (const view of views) view.event?.(event, context);
    if (["connection", "hmiStatus", "appState"].includes(event.type)) refreshApps();
  }, { history: HISTORY });
  refreshApps();
}

$("register-form").onsubmit = async (event) => {
  event.preventDefault();
  const appID = $("appID").value.trim();
  const params = { id: appID, appName: $("appName").value.trim(), appID, appHMIType: [$("appType").value],
    isMediaApplication: $("isMedia").checked, languageDesired: $("language").value, hmiDisplayLanguageDesired: $("language").value };
  const rgb = $("primaryColor").value.match(/\w\w/g).map((hex) => parseInt(hex, 16));
  params.dayColorScheme = { primaryColor: { red: rgb[0], green: rgb[1], blue: rgb[2] } };
  try {
    await gw.apps.register(params);
    select(appID);
  } catch (error) {
    report(error);
  }
};
