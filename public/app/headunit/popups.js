// What a head unit draws over the app's screen while a request waits for the driver
// (MOBILE_API.xml: Alert, SubtleAlert, ScrollableMessage, Slider, PerformInteraction, Speak), each
// answered by a click as the driver answers it, with the time it has left running out as a bar:
// when it ends, the head unit answers by itself and the pop-up goes.
import { element } from "../dom.js";
import { imageElement } from "./images.js";
import { softButton } from "./screen.js";

/** The pop-up for `model.overlay`, or "" when nothing is open. */
export function popup(model, ctx) {
  const open = model.overlay;
  if (!open) return "";
  const draw = DRAW[open.function];
  if (!draw) return "";
  const p = open.parameters ?? {};
  const node = draw(p, model, ctx, open);
  node.id = "hmi-overlay";
  node.dataset.function = open.function;
  node.setAttribute("role", open.function === "Speak" ? "status" : "dialog");
  node.setAttribute("aria-label", open.function);
  if (open.durationMs) node.append(countdown(open));
  return node;
}

/** A bar that empties over the time the head unit gives the pop-up. */
function countdown(open) {
  const left = Math.max(0, open.remainingMs ?? open.durationMs);
  const bar = element("div", { className: "hu-countdown", title: `${Math.ceil(left / 1000)} s left` }, element("div", { className: "fill" }));
  bar.firstChild.style.animationDuration = `${left}ms`;
  bar.firstChild.style.width = `${(100 * left) / open.durationMs}%`;
  return bar;
}

const closeButton = (ctx, label = "Close") =>
  element("button", { type: "button", className: "hu-close", "aria-label": label, title: `${label} (the driver dismisses it: ABORTED)`, onclick: () => ctx.driver.answer({ result: "ABORTED" }) }, "✕");

const buttonRow = (buttons, model, ctx) =>
  element("div", { className: "hu-popup-buttons" }, ...(buttons ?? []).map((button) => softButton(button, model.appID, ctx, (id, mode) => ctx.driver.softButton(id, mode))));

const lines = (...texts) => texts.filter(Boolean).map((text, index) => element("p", { className: index === 0 ? "primary" : "secondary" }, text));

function alert(p, model, ctx) {
  return element("div", { className: "hu-popup hu-alert" },
    element("div", { className: "hu-popup-head" }, imageElement(ctx.images, model.appID, model.icon, "icon"), element("span", {}, model.appName), closeButton(ctx)),
    element("div", { className: "hu-alert-body" },
      imageElement(ctx.images, model.appID, p.alertIcon, "alert"),
      element("div", { className: "hu-alert-text" }, ...lines(p.alertText1, p.alertText2, p.alertText3)),
      p.progressIndicator ? element("span", { className: "hu-spinner", "aria-label": "in progress" }) : ""),
    buttonRow(p.softButtons, model, ctx));
}

function subtleAlert(p, model, ctx) {
  return element("div", { className: "hu-popup hu-subtle-alert" },
    imageElement(ctx.images, model.appID, p.alertIcon, "alert"),
    element("div", { className: "hu-alert-text" }, ...lines(p.alertText1, p.alertText2)),
    buttonRow((p.softButtons ?? []).slice(0, 2), model, ctx),
    closeButton(ctx));
}

function scrollableMessage(p, model, ctx) {
  return element("div", { className: "hu-popup hu-scrollable" },
    element("div", { className: "hu-popup-head" }, element("span", {}, model.appName), closeButton(ctx)),
    element("div", { className: "hu-scroll-body", tabIndex: 0 }, p.scrollableMessageBody ?? ""),
    buttonRow(p.softButtons, model, ctx));
}

/** Slider: drag to a tick (1…numTicks); the footer follows the tick when it has one per tick. */
function slider(p, model, ctx) {
  const ticks = p.numTicks ?? 10;
  const footers = p.sliderFooter ?? [];
  const input = element("input", { type: "range", min: 1, max: ticks, step: 1, value: p.position ?? 1, id: "hmi-slider", "aria-label": p.sliderHeader ?? "slider" });
  const footer = element("p", { className: "secondary hu-slider-footer" });
  const update = () => {
    footer.textContent = footers.length > 1 ? footers[Number(input.value) - 1] ?? "" : footers[0] ?? "";
    input.style.setProperty("--fill", `${((Number(input.value) - 1) / Math.max(1, ticks - 1)) * 100}%`);
  };
  input.oninput = update;
  update();
  return element("div", { className: "hu-popup hu-slider" },
    element("div", { className: "hu-popup-head" }, element("span", {}, p.sliderHeader ?? ""), closeButton(ctx)),
    input,
    element("div", { className: "hu-slider-ticks" }, element("span", {}, "1"), element("span", { className: "value" }, ""), element("span", {}, String(ticks))),
    footer,
    element("div", { className: "hu-popup-buttons" },
      element("button", { type: "button", className: "hu-soft-button highlighted", id: "hmi-slider-save", onclick: () => ctx.driver.answer({ sliderPosition: Number(input.value) }) }, "Save")));
}

/** The choices of a PerformInteraction: its own (`choiceSet`, as Core sends the HMI) or the app's sets. */
function choicesOf(p, model) {
  if (Array.isArray(p.choiceSet)) return p.choiceSet;
  const sets = new Map((model.choiceSets ?? []).map((set) => [set.interactionChoiceSetID, set.choiceSet ?? []]));
  return (p.interactionChoiceSetIDList ?? []).flatMap((id) => sets.get(id) ?? []);
}

function performInteraction(p, model, ctx) {
  const layout = p.interactionLayout ?? "LIST_ONLY";
  const title = element("span", {}, p.initialText ?? "");
  const head = element("div", { className: "hu-popup-head" }, title, closeButton(ctx));
  if (layout === "KEYBOARD" || layout === "LIST_WITH_SEARCH") {
    return element("div", { className: "hu-popup hu-interaction keyboard" }, head, keyboard(model, ctx, choicesOf(p, model)));
  }
  const tiles = layout === "ICON_ONLY" || layout === "ICON_WITH_SEARCH" || layout === "TILES";
  const all = choicesOf(p, model);
  // When any choice has an image, the others keep its room, so the names line up.
  const anyImage = all.some((choice) => choice.image);
  const choices = all.map((choice) => element("button", {
    type: "button", className: "hu-choice", dataset: { choiceId: choice.choiceID },
    onclick: () => ctx.driver.answer({ choiceID: choice.choiceID, triggerSource: "MENU" }),
  },
  imageElement(ctx.images, model.appID, choice.image, "choice") || (anyImage ? element("span", { className: "hu-img hu-img-choice blank" }) : ""),
  element("span", { className: "texts" },
    element("span", { className: "label" }, choice.menuName ?? ""),
    choice.secondaryText ? element("small", {}, choice.secondaryText) : "",
    choice.tertiaryText ? element("small", {}, choice.tertiaryText) : ""),
  imageElement(ctx.images, model.appID, choice.secondaryImage, "choice-secondary")));
  return element("div", { className: `hu-popup hu-interaction ${tiles ? "tiles" : "list"}` }, head, element("div", { className: "hu-choices" }, ...choices));
}

const ROWS = {
  QWERTY: ["qwertyuiop", "asdfghjkl", "zxcvbnm"],
  QWERTZ: ["qwertzuiop", "asdfghjkl", "yxcvbnm"],
  AZERTY: ["azertyuiop", "qsdfghjklm", "wxcvbn"],
  NUMERIC: ["123", "456", "789", "0"],
};

/**
 * The keyboard (KeyboardProperties from SetGlobalProperties: layout, autocomplete list, limited
 * characters, masking): keys and a field, suggestions from the autocomplete list (or the choices'
 * names) for what is typed; Enter submits the text.
 */
function keyboard(model, ctx, choices) {
  const properties = model.globalProperties?.keyboardProperties ?? {};
  const input = element("input", { id: "hmi-keyboard", "aria-label": "typed text", autocomplete: "off", type: properties.maskInputCharacters === "ENABLE_INPUT_KEY_MASK" ? "password" : "text" });
  const suggestions = element("div", { className: "hu-suggestions", id: "hmi-suggestions" });
  const words = properties.autoCompleteList ?? (properties.autoCompleteText ? [properties.autoCompleteText] : choices.map((c) => c.menuName).filter(Boolean));
  const limited = properties.limitedCharacterList?.map((c) => c.toLowerCase());
  const suggest = () => {
    const typed = input.value.toLowerCase();
    suggestions.replaceChildren(...words.filter((word) => typed && word.toLowerCase().startsWith(typed) && word.toLowerCase() !== typed).slice(0, 4).map((word) =>
      element("button", { type: "button", className: "hu-suggestion", onclick: () => ((input.value = word), suggest(), input.focus()) }, word)));
  };
  input.oninput = suggest;
  const submit = () => ctx.driver.answer({ text: input.value });
  input.onkeydown = (event) => event.key === "Enter" && submit();
  const key = (text, label = text, action = () => ((input.value += text), suggest())) =>
    element("button", { type: "button", className: "hu-key", disabled: Boolean(limited && text.length === 1 && !limited.includes(text)), onclick: action }, label);
  const rows = (ROWS[properties.keyboardLayout] ?? ROWS.QWERTY).map((row) => element("div", { className: "hu-key-row" }, ...[...row].map((c) => key(c))));
  rows.push(element("div", { className: "hu-key-row" },
    key("", "⌫", () => ((input.value = input.value.slice(0, -1)), suggest())),
    key(" ", "space"),
    element("button", { type: "button", className: "hu-key enter", id: "hmi-keyboard-enter", onclick: submit }, "Enter")));
  // While driving (driver distraction on) a head unit locks the keyboard: the driver can only close it.
  if (ctx.lockedOut) {
    input.disabled = true;
    input.placeholder = "The keyboard is locked while driving";
    for (const row of rows) for (const button of row.querySelectorAll("button")) button.disabled = true;
  }
  return element("div", { className: "hu-keyboard" }, element("div", { className: "hu-keyboard-field" }, input, suggestions), ...rows);
}

/** Speak: what the head unit says, as a caption over the screen. */
function speak(p) {
  const text = (p.ttsChunks ?? []).map((chunk) => chunk.text).filter(Boolean).join(" ");
  return element("div", { className: "hu-caption" }, element("span", { className: "hu-speaker", "aria-hidden": "true" }, "🔊"), text);
}

const DRAW = { Alert: alert, SubtleAlert: subtleAlert, ScrollableMessage: scrollableMessage, Slider: slider, PerformInteraction: performInteraction, Speak: speak };
