// The head unit's home screen: every registered app as a tile with its icon (SetAppIcon) and HMI
// level; a click is the driver opening the app (FULL), and the head unit moves the others as Core
// moves them (the one in FULL to LIMITED when it is a media app, else BACKGROUND).
import { element } from "../dom.js";
import { imageElement } from "./images.js";

const LEVEL = { FULL: "open", LIMITED: "playing", BACKGROUND: "background", NONE: "not started" };

export function launcher(apps, ctx) {
  const tiles = apps.map((app) => element("button", {
    type: "button",
    className: `hu-app-tile level-${(app.hmiLevel ?? "NONE").toLowerCase()}`,
    dataset: { appId: app.appID },
    title: `${app.appName}: ${app.hmiLevel}`,
    onclick: () => ctx.driver.activate(app.appID),
  },
  imageElement(ctx.images, app.appID, app.icon, "icon") || element("span", { className: "hu-img hu-img-icon letter" }, (app.appName ?? "?").slice(0, 1)),
  element("span", { className: "label" }, app.appName ?? app.appID),
  element("small", {}, LEVEL[app.hmiLevel] ?? app.hmiLevel ?? "")));
  return element("div", { className: "hu-launcher", id: "hmi-launcher", role: "region", "aria-label": "apps" },
    element("header", { className: "hu-header" },
      element("span", { className: "hu-clock-now", "aria-hidden": "true" }),
      element("span", { className: "hu-title" }, "Apps"),
      element("time", { className: "hu-clock-now" }, new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }))),
    apps.length ? element("div", { className: "hu-app-grid" }, ...tiles) : element("p", { className: "hu-empty" }, "No app is registered."));
}
