// The page: connects through the browser client, lists the apps, registers one, and hands the
// selected app's events to each view (dashboard, HMI preview, builder, console, files, simulator).
import { connect } from "../sdl-gateway.js";
import { $, element, describeError, failNear, report } from "./dom.js";
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
/** The title of a control a read-only token may not use. */
const READ_ONLY = "Needs a token with the control scope: this one is read-only";
// The tone of an app's badges in the list.
const LEVEL = { FULL: "on", LIMITED: "on", BACKGROUND: "", NONE: "" };
const CONNECTION = { registered: "on", connecting: "", reconnecting: "warn", failed: "alarm", unregistered: "alarm" };
// The selected app's event listener; declared before the first await, which may select an app.
let unsubscribe = () => {};
let asked = 0;
/** What the app list last showed. */
let lastShown = "";
/** How often the app list is read again (apps that scripts register or remove appear). */
const APPS_EVERY_MS = 2000;

const gw = await connect({
  token: sessionStorage.getItem(TOKEN_KEY) ?? undefined,
  // Asked at the first 401, and again after a wrong token, until the user cancels.
  askForToken: () => prompt(asked++ ? "That token was not accepted. Another token (kept for this tab only):" : "This sdl-gateway needs a token (kept for this tab only):"),
  onScope: (scope) => applyScope(scope),
}).catch((error) => {
  $("status").textContent = describeError(error);
  $("status").classList.add("bad");
  $("forget").textContent = "Enter a token";
  $("forget").hidden = false;
  return null;
});

const context = { gw, app: null, simulated: false, headless: null };
if (gw) {
  if (gw.token) sessionStorage.setItem(TOKEN_KEY, gw.token);
  $("forget").hidden = !gw.token;
  context.simulated = await gw.simulator.apps().then(() => true, () => false);
  // Without the simulator, a gateway with --hmi drives a real Core through its headless HMI.
  context.headless = context.simulated ? null : await gw.hmi.status().catch(() => null);
  for (const view of views) view.init?.(context);
  showStatus();
  await refreshApps();
  setInterval(() => document.visibilityState === "visible" && refreshApps(), APPS_EVERY_MS);
}

function showStatus() {
  const headUnit = context.simulated ? " · simulated head unit" : context.headless ? ` · SDL Core with the headless HMI (${context.headless.phase})` : "";
  const scope = gw.scope === "read" ? " · read-only token" : "";
  $("status").textContent = `RPC spec ${gw.specVersion}${headUnit}${scope}`;
}

$("forget").onclick = () => {
  sessionStorage.removeItem(TOKEN_KEY);
  location.reload();
};

// A read-only token (learnt from the gateway's first 403, see Gateway.scope): every control that
// needs the control scope is disabled, with a title saying why; the ones drawn later too.
function disableForReadOnly(root) {
  const controls = root.matches?.("[data-needs=control]") ? [root] : [];
  for (const control of [...controls, ...(root.querySelectorAll?.("[data-needs=control]") ?? [])]) {
    control.disabled = true;
    control.title = READ_ONLY;
  }
}
function applyScope(scope) {
  document.body.dataset.scope = scope;
  if (scope !== "read") return;
  disableForReadOnly(document.body);
  new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach(disableForReadOnly)))
    .observe(document.body, { childList: true, subtree: true });
  if (gw) showStatus();
}

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

/** Lists the apps (one entry each: name, id, connection and HMI level) and marks the selected one. */
export async function refreshApps() {
  let apps;
  try {
    apps = await gw.apps.list();
  } catch (error) {
    $("apps").replaceChildren(element("li", { className: "empty bad", textContent: describeError(error) }));
    return;
  }
  // Drawn again only when something shown changed; an entry asking to confirm an unregistration stays as it is.
  const shown = JSON.stringify([context.app?.id, apps.map((app) => [app.id, app.appName, app.connection, app.hmiLevel])]);
  if (shown === lastShown && $("apps").children.length) return;
  lastShown = shown;
  const confirming = $("apps").querySelector("li.confirming")?.dataset.app;
  $("apps").replaceChildren(...apps.map((app) => (app.id === confirming ? $("apps").querySelector("li.confirming") : entry(app))));
  if (!apps.length) $("apps").append(element("li", { className: "empty", textContent: "no apps" }));
  if (!context.app && apps.length) select(apps[0].id);
}

function entry(app) {
  const selected = context.app?.id === app.id;
  const badge = (field, value, tone) => element("span", { className: `badge ${tone ?? ""}`, textContent: value, title: field, dataset: { field } });
  const choose = element("button", { type: "button", className: "select", "aria-pressed": String(selected), title: `Show ${app.appName ?? app.id} in every view` },
    element("span", { className: "name", textContent: app.appName ?? app.id }),
    element("span", { className: "id", textContent: app.id }),
    element("span", { className: "badges" }, badge("connection", app.connection, CONNECTION[app.connection]),
      ...(app.hmiLevel ? [badge("HMI level", app.hmiLevel, LEVEL[app.hmiLevel])] : [])));
  choose.onclick = () => select(app.id);
  const remove = element("button", { type: "button", className: "remove", textContent: "Unregister", "aria-label": `Unregister ${app.appName ?? app.id}`,
    title: `Unregister ${app.id} (DELETE /v1/apps/${app.id})`, dataset: { needs: "control" } });
  const item = element("li", { dataset: { app: app.id }, className: selected ? "selected" : "" }, choose, remove);
  remove.onclick = () => confirmRemoval(item, app, remove);
  return item;
}

/** Asks in place before unregistering `app`; the next refresh of the list ends the question. */
function confirmRemoval(item, app, remove) {
  item.classList.add("confirming");
  const question = element("div", { className: "confirm", role: "group", "aria-label": "confirm" },
    element("span", { textContent: `Unregister ${app.appName ?? app.id}?` }));
  const yes = element("button", { type: "button", className: "danger", textContent: "Unregister", dataset: { needs: "control" } });
  const no = element("button", { type: "button", textContent: "Cancel" });
  question.append(yes, no);
  remove.replaceWith(question);
  no.onclick = () => {
    item.classList.remove("confirming");
    lastShown = "";
    refreshApps();
  };
  yes.onclick = async () => {
    yes.disabled = true;
    try {
      await gw.apps.remove(app.id);
      if (context.app?.id === app.id) {
        unsubscribe();
        context.app = null;
      }
      item.classList.remove("confirming");
      lastShown = "";
      await refreshApps();
    } catch (error) {
      yes.disabled = false;
      report(error, question);
    }
  };
  no.focus();
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
  $("register").disabled = true;
  try {
    await gw.apps.register(params);
    select(appID);
  } catch (error) {
    failNear($("register"))(error);
  } finally {
    $("register").disabled = gw.scope === "read";
  }
};
