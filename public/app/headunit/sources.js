// Where the preview reads the head unit from, as one model for headunit/*.js: the simulator's
// control API (`--simulate`) or the headless HMI's in front of a real SDL Core (`--hmi`). Each
// source gives `load()` → `{apps, shown, popupOf, driverDistraction, signature}` (`popupOf`: the app
// whose pop-up is open, drawn over the screen) and the
// driver's operations (press, command, answer, activate, leave, menuContext, file), and where the
// app's live video is read (`videoFeed`: the feed WebSocket's path) and where a touch goes (`touch`).

/** `{hours, minutes, seconds}` in seconds, or null. */
const seconds = (time) => (time ? (time.hours ?? 0) * 3600 + (time.minutes ?? 0) * 60 + (time.seconds ?? 0) : null);

/** A media clock as the preview runs it (see media.js clockPosition). */
function clockOf(clock) {
  if (!clock) return null;
  const countdown = clock.updateMode === "COUNTDOWN";
  return {
    position: clock.currentSeconds ?? clock.positionSeconds ?? seconds(clock.startTime) ?? 0,
    at: performance.now(),
    running: Boolean(clock.running ?? (clock.updateMode === "COUNTUP" || countdown)),
    direction: countdown ? -1 : 1,
    rate: clock.countRate ?? 1,
    start: seconds(clock.startTime),
    end: seconds(clock.endTime),
    indicator: clock.audioStreamingIndicator,
  };
}

/** What changes the picture: the data without the clock's moving position and the streams' counters. */
function signatureOf(value) {
  return JSON.stringify(value, (key, v) => {
    if (["currentSeconds", "remainingMs", "at"].includes(key)) return undefined;
    return key === "streams" && v ? { video: v.video?.state ?? null, audio: v.audio?.state ?? null } : v;
  });
}

/**
 * Whether the head unit is receiving the app's video now (`streams.video.state` of its app:
 * the simulator's `streaming`; the headless HMI's `started` once Core's StartStream came, `streaming` once data flows).
 */
const streamingVideo = (app) => ["started", "streaming"].includes(app?.streams?.video?.state);

const dynamic = (name) => (name ? { value: name, imageType: "DYNAMIC" } : null);

/** One app of the simulator (`/v1/simulator/apps/{appID}` and its screen) as the preview's model. */
function modelOf(app, screen) {
  return {
    appID: app.appID,
    appName: app.appName,
    isMedia: Boolean(app.isMediaApplication),
    icon: dynamic(app.icon),
    hmiLevel: app.hmiLevel,
    audioStreamingState: app.audioStreamingState,
    systemContext: app.systemContext,
    videoStreamingState: app.videoStreamingState,
    videoStreaming: streamingVideo(app),
    template: screen.template ?? "DEFAULT",
    show: screen.show ?? {},
    dayColorScheme: screen.dayColorScheme,
    nightColorScheme: screen.nightColorScheme,
    mediaClock: clockOf(screen.mediaClock),
    globalProperties: screen.globalProperties ?? {},
    menu: app.menu ?? { commands: [], subMenus: [] },
    choiceSets: app.choiceSets ?? [],
    overlay: screen.overlay ?? null,
  };
}

/** The simulated head unit (`/v1/simulator`). */
export function fromSimulator(gw) {
  const api = gw.simulator;
  // Each app's file names: a name the head unit lacks is drawn as missing without a request (and
  // without the browser logging a 404).
  const files = new Map();
  return {
    async load() {
      const [apps, distraction] = await Promise.all([api.apps(), api.driverDistractionState().catch(() => null)]);
      for (const app of apps) files.set(app.appID, new Set(app.files ?? []));
      // Every app's screen: the one in FULL is drawn, and a pop-up of any app shows over it (an
      // app in the background may alert, as on Core).
      const screens = await Promise.all(apps.slice(0, 16).map((app) => api.screen(app.appID).catch(() => null)));
      const models = apps.slice(0, 16).map((app, index) => screens[index] && modelOf(app, screens[index]));
      const shown = models.find((model) => model?.hmiLevel === "FULL") ?? null;
      const list = apps.map((app) => ({ appID: app.appID, appName: app.appName, hmiLevel: app.hmiLevel, icon: dynamic(app.icon) }));
      const popupOf = shown?.overlay ? shown : models.find((model) => model?.overlay) ?? null;
      return { apps: list, shown, popupOf, driverDistraction: distraction?.state, signature: signatureOf([apps, screens, distraction]) };
    },
    press: (button, options) => api.press(button, options),
    command: (appID, cmdID, triggerSource) => api.command(appID, cmdID, triggerSource),
    answer: (appID, body) => api.answer(appID, body),
    activate: (appID) => api.setHMILevel(appID, "FULL"),
    /** The driver leaves the app for the launcher: a media app plays on (LIMITED), others go BACKGROUND. */
    leave: (model) => api.setHMILevel(model.appID, model.isMedia ? "LIMITED" : "BACKGROUND"),
    /** The menu open is system context MENU, as Core tells the app (OnHMIStatus). */
    menuContext: (model, open) => api.setHMI(model.appID, { systemContext: open ? "MENU" : "MAIN" }),
    videoFeed: (appID) => `/v1/simulator/apps/${encodeURIComponent(appID)}/video`,
    /** A driver's touch on the video (`{type, x, y, id}`, the video's pixels): OnTouchEvent to the app. */
    touch: (appID, touch) => api.touch(appID, touch),
    file: async (appID, name) => {
      if (files.has(appID) && !files.get(appID).has(name)) throw Object.assign(new Error(`${name} is not on the head unit`), { status: 404 });
      return api.file(appID, name);
    },
  };
}

/** The last path component: Core names an app's file by its full path in its storage folder. */
const baseName = (value) => String(value ?? "").split(/[\\/]/).pop();

/** Core's UI menu (HMI_API.xml UI.AddSubMenu keeps name and position in `menuParams`). */
function hmiMenu(screen) {
  return {
    commands: screen.menu ?? [],
    subMenus: (screen.subMenus ?? []).map((m) => ({ ...m.menuParams, ...m, menuName: m.menuParams?.menuName ?? m.menuName, parentID: m.menuParams?.parentID ?? m.parentID, position: m.menuParams?.position ?? m.position })),
  };
}

/** An image Core sent (its value a path in Core's storage) by the name the HMI's files route serves. */
function hmiImages(value) {
  return JSON.parse(JSON.stringify(value ?? null), (key, v) => (v && typeof v === "object" && v.imageType === "DYNAMIC" && typeof v.value === "string" ? { ...v, value: v.name ?? baseName(v.value) } : v));
}

/** UI.Show's fields by their mobile names: Core sends text as `showStrings` ({fieldName, fieldText}). */
function hmiShow(show) {
  const fields = { ...(show ?? {}) };
  for (const { fieldName, fieldText } of show?.showStrings ?? []) if (fieldName && !(fieldName in fields)) fields[fieldName] = fieldText;
  return fields;
}

/**
 * A UI request of Core's by the mobile names the pop-ups read (HMI_API.xml): `alertStrings`
 * ({fieldName, fieldText}) as alertText1…, `initialText` and `messageText` as their text.
 */
function hmiParams(params) {
  const fields = { ...(params ?? {}) };
  for (const { fieldName, fieldText } of params?.alertStrings ?? []) if (fieldName) fields[fieldName] = fieldText;
  if (params?.initialText?.fieldText !== undefined) fields.initialText = params.initialText.fieldText;
  if (params?.messageText?.fieldText !== undefined) fields.scrollableMessageBody = params.messageText.fieldText;
  return fields;
}

/** SDL Core through the in-process headless HMI (`/v1/hmi`). */
export function fromHMI(gw) {
  const api = gw.hmi;
  // Core's app id → the app's own SDL appID, to find the gateway's app whose uploads it copied.
  let policyAppIDs = new Map();
  return {
    async load() {
      const [apps, distraction] = await Promise.all([api.apps(), api.driverDistractionState().catch(() => null)]);
      policyAppIDs = new Map(apps.map((app) => [app.appID, app.policyAppID]));
      const full = apps.find((app) => app.hmiLevel === "FULL");
      const screen = full ? hmiImages(await api.screen(full.appID).catch(() => null)) : null;
      const list = apps.map((app) => ({ appID: app.appID, appName: app.appName, hmiLevel: app.hmiLevel, icon: hmiImages(app.icon ?? null) }));
      const waiting = (screen?.interactions ?? []).find((i) => /^UI\.|^TTS\.Speak$/.test(i.method));
      const shown = full && screen ? {
        appID: full.appID,
        appName: full.appName,
        isMedia: Boolean(screen.isMediaApplication ?? full.isMediaApplication),
        icon: screen.icon ?? null,
        hmiLevel: full.hmiLevel,
        audioStreamingState: full.audioStreamingState ?? "",
        systemContext: full.systemContext ?? "",
        videoStreaming: streamingVideo(full),
        template: screen.template ?? screen.layout?.displayLayout ?? "DEFAULT",
        show: hmiShow(screen.show),
        dayColorScheme: screen.dayColorScheme ?? screen.layout?.dayColorScheme,
        nightColorScheme: screen.nightColorScheme ?? screen.layout?.nightColorScheme,
        mediaClock: clockOf(screen.mediaClock),
        globalProperties: screen.globalProperties ?? {},
        menu: hmiMenu(screen),
        choiceSets: [],
        overlay: waiting ? { function: waiting.method.split(".")[1], parameters: hmiParams(waiting.params), durationMs: waiting.durationMs, remainingMs: waiting.remainingMs } : null,
      } : null;
      return { apps: list, shown, popupOf: shown?.overlay ? shown : null, driverDistraction: distraction?.state, signature: signatureOf([apps, screen, distraction]) };
    },
    press: (button, options) => api.press(button, options),
    command: (appID, cmdID, triggerSource) => api.command(appID, cmdID, triggerSource),
    answer: (appID, body) => api.answer(appID, body),
    activate: (appID) => api.setHMILevel(appID, "FULL"),
    leave: (model) => api.setHMILevel(model.appID, model.isMedia ? "LIMITED" : "BACKGROUND"),
    // Core keeps the system context itself (UI.OnSystemContext is the HMI's to send; not offered here).
    menuContext: async () => {},
    // Core's video consumer (its socket stream), as the headless HMI relays it.
    videoFeed: (appID) => `/v1/hmi/apps/${encodeURIComponent(appID)}/video`,
    touch: (appID, touch) => api.touch(appID, touch),
    // The file as Core holds it (its storage folder, when the gateway can read it); else the
    // gateway's own copies: of what it uploaded for the app, then of its image store, which
    // declared images are uploaded from.
    file: async (appID, name) => {
      try {
        return await api.file(appID, name);
      } catch (error) {
        // Only for a file Core's storage did not give: the gateway's apps are read then, not on every look.
        const gatewayApp = (await gw.apps.list().catch(() => [])).find((app) => app.appID === policyAppIDs.get(appID));
        const uploaded = gatewayApp ? gw.app(gatewayApp.id).files.get(name) : Promise.reject(error);
        return uploaded.catch(() => gw.images.get(name)).catch(() => Promise.reject(error));
      }
    },
  };
}
