// One app's screen as a head unit draws it: the header (app, template title, status bar, menu),
// then the template's regions — text fields, primary and secondary graphic, soft buttons (as a row,
// tiles or text buttons), the media clock and transport, on-screen presets — placed by the
// template's name (`data-template`, styled in hmi.css). The layouts follow SDL's generic_hmi:
// which regions a template has, where they sit and how many soft buttons it shows.
import { element } from "../dom.js";
import { imageElement } from "./images.js";
import { mediaRegion } from "./media.js";
import { holdToPress } from "./press.js";

// Per template: the regions drawn and how soft buttons look (`row`, `tiles`, `text`) and how many fit.
const LAYOUTS = {
  MEDIA: { regions: ["graphic", "text", "media", "buttons"], buttons: "row", max: 4 },
  "NON-MEDIA": { regions: ["text", "graphic", "buttons"], buttons: "row", max: 6 },
  GRAPHIC_WITH_TEXT: { regions: ["graphic", "text"] },
  TEXT_WITH_GRAPHIC: { regions: ["text", "graphic"] },
  TILES_ONLY: { regions: ["buttons"], buttons: "tiles", max: 8 },
  TEXTBUTTONS_ONLY: { regions: ["buttons"], buttons: "text", max: 8 },
  GRAPHIC_WITH_TILES: { regions: ["graphic", "buttons"], buttons: "tiles", max: 4 },
  TILES_WITH_GRAPHIC: { regions: ["buttons", "graphic"], buttons: "tiles", max: 4 },
  GRAPHIC_WITH_TEXT_AND_SOFTBUTTONS: { regions: ["graphic", "text", "buttons"], buttons: "row", max: 4 },
  TEXT_AND_SOFTBUTTONS_WITH_GRAPHIC: { regions: ["text", "buttons", "graphic"], buttons: "row", max: 4 },
  GRAPHIC_WITH_TEXTBUTTONS: { regions: ["graphic", "buttons"], buttons: "text", max: 6 },
  TEXTBUTTONS_WITH_GRAPHIC: { regions: ["buttons", "graphic"], buttons: "text", max: 6 },
  LARGE_GRAPHIC_WITH_SOFTBUTTONS: { regions: ["graphic", "buttons"], buttons: "row", max: 6 },
  DOUBLE_GRAPHIC_WITH_SOFTBUTTONS: { regions: ["graphic", "secondaryGraphic", "buttons"], buttons: "row", max: 6 },
  LARGE_GRAPHIC_ONLY: { regions: ["graphic"] },
  ONSCREEN_PRESETS: { regions: ["text", "presets", "buttons"], buttons: "row", max: 4 },
  NAV_FULLSCREEN_MAP: { regions: ["map", "buttons"], buttons: "text", max: 4 },
  NAV_LIST: { regions: ["text", "buttons"], buttons: "text", max: 8 },
  NAV_KEYBOARD: { regions: ["map", "text", "buttons"], buttons: "text", max: 4 },
  WEB_VIEW: { regions: ["web"] },
  // An app streaming video in a template without a map: its video fills the screen, as Core's HMI shows a projection app.
  PROJECTION: { regions: ["map"] },
};

/**
 * The layout a template name draws with: DEFAULT is MEDIA for a media app, NON-MEDIA otherwise;
 * while the app streams video, a template without a map is PROJECTION (the video, full screen).
 */
export function layoutOf(template, isMedia, videoStreaming = false) {
  let name = template === "DEFAULT" || !LAYOUTS[template] ? (isMedia ? "MEDIA" : "NON-MEDIA") : template;
  if (videoStreaming && !LAYOUTS[name].regions.includes("map")) name = "PROJECTION";
  return { name, ...LAYOUTS[name] };
}

/** `{red, green, blue}` as CSS. */
const rgb = (color) => (color ? `rgb(${color.red ?? 0} ${color.green ?? 0} ${color.blue ?? 0})` : null);

/** The app's colour scheme for `theme` (day or night) as CSS custom properties. */
export function schemeStyle(model, theme) {
  const scheme = (theme === "night" ? model.nightColorScheme : model.dayColorScheme) ?? model.dayColorScheme ?? {};
  return [["--app-primary", scheme.primaryColor], ["--app-secondary", scheme.secondaryColor], ["--app-background", scheme.backgroundColor]]
    .filter(([, color]) => color)
    .map(([name, color]) => `${name}: ${rgb(color)}`)
    .join("; ");
}

/**
 * The screen's body for `model` (see hmi.js for its fields). `ctx` holds `images` (an ImageStore),
 * `driver` (what a press or a pick does), `openMenu` and `video(model)` (the app's live video canvas).
 */
export function screenBody(model, ctx) {
  const layout = layoutOf(model.template, model.isMedia, model.videoStreaming);
  const show = model.show ?? {};
  const body = element("div", { className: "hu-body", dataset: { layout: layout.name } });
  for (const region of layout.regions) {
    const part = REGIONS[region](model, ctx, layout);
    if (part) body.append(part);
  }
  return { body, header: header(model, ctx, show) };
}

function header(model, ctx, show) {
  const menuTitle = model.globalProperties?.menuTitle || "Menu";
  const menuIcon = imageElement(ctx.images, model.appID, model.globalProperties?.menuIcon, "menu-icon");
  return element("header", { className: "hu-header" },
    element("button", { type: "button", className: "hu-home", title: "Apps (leave this app)", "aria-label": "Apps", onclick: () => ctx.goHome() }, "⌂"),
    imageElement(ctx.images, model.appID, model.icon, "icon") || element("span", { className: "hu-img hu-img-icon letter" }, (model.appName ?? "?").slice(0, 1)),
    element("span", { className: "hu-app-name" }, model.appName ?? model.appID),
    element("span", { className: "hu-title", id: "hmi-template-title" }, show.templateTitle ?? ""),
    element("span", { className: "hu-status-bar" }, show.statusBar ?? ""),
    element("button", { type: "button", className: "hu-menu-button", id: "hmi-menu-button", onclick: () => ctx.openMenu() }, menuIcon, menuTitle));
}

const REGIONS = {
  text: (model) => textRegion(model),
  graphic: (model, ctx) => graphicRegion(model, ctx, "graphic"),
  secondaryGraphic: (model, ctx) => graphicRegion(model, ctx, "secondaryGraphic"),
  buttons: (model, ctx, layout) => softButtons(model, ctx, layout),
  media: (model, ctx) => mediaRegion(model, ctx),
  presets: (model, ctx) => presets(model, ctx),
  map: (model, ctx) => model.videoStreaming && ctx.video
    ? element("div", { className: "hu-region hu-map streaming" }, ctx.video(model))
    : element("div", { className: "hu-region hu-map", role: "img", "aria-label": "map" },
    element("span", { className: "hu-map-label" }, model.videoStreamingState === "STREAMABLE" ? "Video stream" : "Map: the app's video stream is drawn here")),
  web: (model) => element("div", { className: "hu-region hu-web" }, element("span", {}, `${model.appName}: web view`)),
};

const ALIGN = { LEFT_ALIGNED: "left", RIGHT_ALIGNED: "right", CENTERED: "center" };

/** mainField1–4 (MEDIA: 3, 1, 2 and mediaTrack, as a media screen orders them), aligned, tagged. */
function textRegion(model) {
  const show = model.show ?? {};
  const names = model.template === "MEDIA" || (model.template === "DEFAULT" && model.isMedia)
    ? ["mainField3", "mainField1", "mainField2", "mediaTrack"]
    : ["mainField1", "mainField2", "mainField3", "mainField4"];
  const tags = show.metadataTags ?? {};
  const lines = names.filter((name) => show[name]).map((name, index) => element("div", {
    className: `hu-field ${index < 2 && name !== "mainField3" && name !== "mediaTrack" ? "primary" : "secondary"}`, dataset: { field: name },
  }, element("span", { className: "text" }, show[name]), ...(tags[name] ?? []).map((tag) => element("span", { className: "hu-tag", title: `metadata tag ${tag}` }, tag))));
  return element("div", { className: "hu-region hu-text", id: "hmi-fields", style: `text-align: ${ALIGN[show.alignment] ?? "left"}` }, ...lines);
}

function graphicRegion(model, ctx, name) {
  const image = model.show?.[name];
  const art = imageElement(ctx.images, model.appID, image, name === "graphic" ? "graphic" : "secondary-graphic");
  return element("div", { className: `hu-region hu-${name === "graphic" ? "graphic" : "graphic2"}`, dataset: { slot: name } },
    art || element("span", { className: "hu-img empty", "aria-label": `no ${name}` }));
}

/** A soft button: its text, image (BOTH: both), highlight; a click is SHORT, a hold of 1 s LONG. */
export function softButton(button, appID, ctx, press) {
  const type = button.type ?? (button.image && button.text ? "BOTH" : button.image ? "IMAGE" : "TEXT");
  const node = element("button", {
    type: "button",
    className: `hu-soft-button${button.isHighlighted ? " highlighted" : ""}`,
    dataset: { softButtonId: button.softButtonID, type },
    "aria-pressed": String(Boolean(button.isHighlighted)),
  },
  type !== "TEXT" ? imageElement(ctx.images, appID, button.image, "soft-button") : "",
  type !== "IMAGE" && button.text ? element("span", { className: "label" }, button.text) : "");
  holdToPress(node, (mode) => press(button.softButtonID, mode));
  return node;
}

function softButtons(model, ctx, layout) {
  const all = model.show?.softButtons ?? [];
  const shown = all.slice(0, layout.max ?? 6);
  const region = element("div", { className: `hu-region hu-buttons ${layout.buttons ?? "row"}`, dataset: { count: shown.length } },
    ...shown.map((button) => softButton(button, model.appID, ctx, (id, mode) => ctx.driver.softButton(id, mode))));
  if (all.length > shown.length) region.title = `${all.length - shown.length} more soft buttons than this template shows`;
  return region;
}

/** ONSCREEN_PRESETS: the app's `customPresets` as preset keys (six empty ones without them). */
function presets(model, ctx) {
  const names = (model.show?.customPresets ?? []).slice(0, 10);
  const keys = names.length ? names : Array(6).fill("");
  return element("div", { className: "hu-region hu-presets", style: `--columns: ${Math.min(keys.length, 5)}` }, ...keys.map((name, index) => {
    const node = element("button", { type: "button", className: "hu-preset" }, element("small", {}, String(index + 1)), name);
    holdToPress(node, (mode) => ctx.driver.hardButton(`PRESET_${index}`, mode));
    return node;
  }));
}
