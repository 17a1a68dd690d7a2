// The app's menu as the head unit lists it (AddCommand, AddSubMenu, SetGlobalProperties
// menuTitle/menuLayout, MOBILE_API.xml): entries of one level at a time, as a list or as tiles,
// drilling into sub-menus and back; picking a command is the driver choosing it (OnCommand MENU).
// The voice commands are the "say" panel beside the screen: a click is the driver saying one
// (OnCommand VR).
import { element } from "../dom.js";
import { imageElement } from "./images.js";

const byPosition = (a, b) => (a.position ?? 1e9) - (b.position ?? 1e9);

/** The entries of the level `parentID` (0: the top): sub-menus and commands in position order. */
export function menuLevel(menu, parentID) {
  const top = (value) => (value ?? 0) === parentID;
  const subMenus = (menu.subMenus ?? []).filter((m) => top(m.parentID)).map((m) => ({ kind: "subMenu", id: m.menuID, name: m.menuName, position: m.position, icon: m.menuIcon, secondary: m.secondaryText, tertiary: m.tertiaryText, layout: m.menuLayout }));
  const commands = (menu.commands ?? []).filter((c) => c.menuParams && top(c.menuParams.parentID)).map((c) => ({ kind: "command", id: c.cmdID, name: c.menuParams.menuName, position: c.menuParams.position, icon: c.cmdIcon, secondary: c.menuParams.secondaryText, tertiary: c.menuParams.tertiaryText }));
  return [...subMenus, ...commands].sort(byPosition);
}

/**
 * The menu sheet: `path` is the list of sub-menu ids drilled into; `ctx.menu` has `open(path)`,
 * `close()` and the driver's `command(cmdID, source)`.
 */
export function menuSheet(model, ctx, path) {
  const menu = model.menu ?? {};
  const parentID = path.at(-1) ?? 0;
  const current = (menu.subMenus ?? []).find((m) => m.menuID === parentID);
  const layout = (current ? current.menuLayout : model.globalProperties?.menuLayout) ?? "LIST";
  const entries = menuLevel(menu, parentID);
  const title = current?.menuName ?? model.globalProperties?.menuTitle ?? "Menu";
  const back = path.length
    ? element("button", { type: "button", className: "hu-back", "aria-label": "Back", onclick: () => ctx.menu.open(path.slice(0, -1)) }, "‹")
    : element("button", { type: "button", className: "hu-back", "aria-label": "Close the menu", onclick: () => ctx.menu.close() }, "✕");
  const items = entries.map((entry) => element("button", {
    type: "button",
    className: `hu-menu-entry ${entry.kind}`,
    dataset: entry.kind === "command" ? { cmdId: entry.id } : { menuId: entry.id },
    onclick: () => (entry.kind === "subMenu" ? ctx.menu.open([...path, entry.id]) : ctx.menu.pick(entry.id)),
  },
  imageElement(ctx.images, model.appID, entry.icon, "menu") || element("span", { className: "hu-img hu-img-menu blank" }),
  element("span", { className: "texts" },
    element("span", { className: "label" }, entry.name ?? ""),
    entry.secondary ? element("small", {}, entry.secondary) : "",
    entry.tertiary ? element("small", {}, entry.tertiary) : ""),
  entry.kind === "subMenu" ? element("span", { className: "chevron", "aria-hidden": "true" }, "›") : ""));
  return element("div", { className: `hu-menu ${layout === "TILES" ? "tiles" : "list"}`, id: "hmi-menu", role: "dialog", "aria-label": title, dataset: { level: parentID } },
    element("div", { className: "hu-popup-head" }, back, element("span", { className: "hu-menu-title" }, title)),
    entries.length ? element("div", { className: "hu-menu-entries" }, ...items) : element("p", { className: "hu-empty" }, "This menu is empty."));
}

/** The "say" panel: every voice command of the app (AddCommand vrCommands); a click says it. */
export function sayPanel(model, ctx) {
  const commands = (model.menu?.commands ?? []).filter((c) => c.vrCommands?.length);
  const help = model.globalProperties?.vrHelp ?? [];
  return element("section", { className: "hu-say", id: "hmi-say", "aria-label": "voice commands" },
    element("h4", {}, "Say"),
    commands.length
      ? element("ul", {}, ...commands.flatMap((c) => c.vrCommands.map((phrase) => element("li", {},
        element("button", { type: "button", className: "hu-say-phrase", dataset: { cmdId: c.cmdID }, onclick: () => ctx.driver.command(c.cmdID, "VR") }, `“${phrase}”`)))))
      : element("p", { className: "muted" }, "The app has no voice commands."),
    help.length ? element("p", { className: "muted" }, `Help: ${help.map((item) => item.text).join(" · ")}`) : "");
}
