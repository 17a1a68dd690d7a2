// Images as the head unit draws them (MOBILE_API.xml `Image`): a DYNAMIC image by the bytes of the
// file the app put on the head unit, a STATIC one by its on-board icon name, a missing file as a
// visible placeholder naming it, and an `isTemplate` image tinted with the colour scheme.
import { element } from "../dom.js";

// The on-board icons a head unit ships (the SDL app libraries' StaticIconName: a hex value per
// icon), the common ones drawn as a symbol; any other value is drawn as its name or hex value.
const STATIC_ICONS = {
  "0x29": ["Accept call", "📞"], "0x2C": ["End call", "☎"], "0x21": ["Album", "💿"], "0x24": ["Artist", "🎤"],
  "0x4C": ["Track title", "♪"], "0x4F": ["Playlist", "☰"], "0x4E": ["Genre", "♫"], "0x86": ["Back", "←"],
  "0xD0": ["Play", "▶"], "0xCF": ["Pause", "❚❚"], "0x16": ["Stop", "■"], "0x15": ["Next", "▶▶"], "0x17": ["Previous", "◀◀"],
  "0x07": ["Rewind 30 s", "↺"], "0x08": ["Forward 30 s", "↻"], "0x74": ["Shuffle", "⇄"], "0x73": ["Repeat", "⟳"], "0xE6": ["Repeat", "⟳"],
  "0x0E": ["Favourite", "♥"], "0x95": ["Star", "★"], "0x13": ["Thumbs up", "👍"], "0x14": ["Thumbs down", "👎"],
  "0x49": ["Settings", "⚙"], "0x5D": ["Information", "ℹ"], "0xFE": ["Warning", "⚠"], "0xD5": ["Success", "✓"], "0xD6": ["Fail", "✕"],
  "0x97": ["Refresh", "↻"], "0x0F": ["Delete", "🗑"], "0x1C": ["Folder", "📁"], "0x1A": ["Compose", "✎"], "0x04": ["Reply", "↩"],
  "0xE8": ["Microphone", "🎙"], "0x12": ["Mute", "🔇"], "0xEB": ["Weather", "☀"], "0xFC": ["Clock", "🕒"], "0x87": ["Date", "📅"],
  "0x94": ["Destination", "⚑"], "0x96": ["Origin", "◉"], "0x8E": ["Navigation", "➤"], "0x0C": ["Full map", "🗺"], "0x1B": ["Add waypoint", "⊕"],
  "0x22": ["Locked", "🔒"], "0x23": ["Unlocked", "🔓"], "0x98": ["Zoom in", "+"], "0x9A": ["Zoom out", "−"], "0x5C": ["Contact", "👤"],
  "0x81": ["Phonebook", "📒"], "0x88": ["Photo", "🖼"], "0x89": ["RSS", "◔"], "0xE1": ["Show", "👁"], "0x79": ["Filter", "⏷"],
  "0x7B": ["Sort", "⇅"], "0x5B": ["Power", "⏻"], "0x09": ["Bluetooth audio", "ᛒ"], "0x43": ["Wi-Fi", "📶"], "0xD1": ["Climate", "❄"],
  "0xE9": ["Fuel prices", "⛽"], "0x27": ["Checked", "☑"], "0x28": ["Unchecked", "☐"], "0x25": ["Selected", "◉"], "0x26": ["Not selected", "○"],
  "0x42": ["Continue", "→"], "0x4B": ["Left", "←"], "0xE4": ["Move up", "↑"], "0xE5": ["Move down", "↓"], "0x40": ["North", "⬆"],
};

/** The on-board icon `value` names: `[name, symbol]`, or nil for a value this table lacks. */
export function staticIcon(value) {
  const key = /^0x[0-9a-f]+$/i.test(value ?? "") ? `0x${value.slice(2).toUpperCase()}` : value;
  return STATIC_ICONS[key] ?? null;
}

/**
 * Loads DYNAMIC images for one head unit: `fetchFile(appID, name)` gives a Blob (the simulator's or
 * the headless HMI's files route); each file is fetched once and kept as an object URL until
 * `forget(appID, name)` (the app put or deleted it again).
 */
export class ImageStore {
  constructor(fetchFile) {
    this.fetchFile = fetchFile;
    this.urls = new Map();
  }

  /** A promise of `{url}` or `{missing: reason}` for the app's file `name`. */
  load(appID, name) {
    const key = `${appID}\u0000${name}`;
    if (!this.urls.has(key)) {
      this.urls.set(key, this.fetchFile(appID, name).then(
        (blob) => ({ url: URL.createObjectURL(blob) }),
        (error) => ({ missing: error?.status === 404 ? "not on the head unit" : String(error?.message ?? error) })));
    }
    return this.urls.get(key);
  }

  forget(appID, name) {
    const key = `${appID}\u0000${name}`;
    // The screen still shows the old bytes until it draws again: let go of them a little later.
    this.urls.get(key)?.then(({ url }) => url && setTimeout(() => URL.revokeObjectURL(url), 10000));
    this.urls.delete(key);
  }
}

/**
 * An element that shows `image` (an SDL `Image`) for `appID`: filled in when its bytes arrive.
 * `role` names the slot (graphic, secondaryGraphic, softButton, menu, choice, alert, icon) for tests
 * and styles. Returns "" when there is no image.
 */
export function imageElement(store, appID, image, role) {
  if (!image?.value) return "";
  const box = element("span", { className: `hu-img hu-img-${role}`, dataset: { image: image.value, imageType: image.imageType ?? "DYNAMIC" } });
  if (image.imageType === "STATIC") {
    const [name, symbol] = staticIcon(image.value) ?? [`Icon ${image.value}`, ""];
    box.classList.add("static");
    box.title = name;
    box.append(symbol ? element("span", { className: "glyph", "aria-label": name }, symbol) : element("span", { className: "label" }, name));
    return box;
  }
  box.classList.add("loading");
  const placeholder = (why) => {
    box.classList.add("missing");
    box.title = `${image.value}: ${why}`;
    box.replaceChildren(element("span", { className: "label" }, image.value));
  };
  store.load(appID, image.value).then(({ url, missing }) => {
    box.classList.remove("loading");
    if (missing) {
      placeholder(missing);
    } else if (image.isTemplate) {
      // A template image is a shape: the colour scheme paints it (CSS mask with the image's alpha).
      box.classList.add("template");
      box.replaceChildren(element("span", { className: "mask", style: `--mask: url("${url}")`, role: "img", "aria-label": image.value }));
    } else {
      // Bytes a browser cannot draw (not an image, or a format it lacks) are named, as a missing file is.
      box.replaceChildren(element("img", { src: url, alt: image.value, draggable: false, onerror: () => placeholder("not an image this browser can draw") }));
    }
  });
  return box;
}
