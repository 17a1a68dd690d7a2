// sdl-gateway.js: the browser client of sdl-gateway, an ES module with no dependencies.
//
//   import { connect } from "/sdl-gateway.js";
//   const gw = await connect({ token });
//   const app = await gw.apps.register({ appName: "Radio", appID: "radio-1" });
//   await app.rpc.Show({ mainField1: "Hi" });
//   app.on("vehicleData", (data) => console.log(data.speed));
//   const { blob } = await app.audio.record({ seconds: 2 });   // the car's microphone, as a WAV Blob
//   await app.batch([{ function: "Show", params: { mainField1: "A" } }]);   // several requests, one call
//   const image = await gw.spec.type("Image");                 // the RPC spec: functions and types
//   await gw.simulator.setFeed({ playing: false });            // the simulator: feed, faults, vehicle data
//   gw.scope;                                                  // "read" once the gateway answered 403 forbidden
//   const art = await gw.simulator.file("radio-1", "art.png");  // a file the app put on the simulated head unit, as a Blob
//   await app.video.start(canvas, { fps: 30 });                // projection: the canvas as H.264 to the head unit
//   app.video.onTouch(({ type, touches }) => {});               // the head unit's touches, in the canvas's coordinates
//
// Everything goes through the gateway's public API (openapi.yaml). Problems come back as
// thrown GatewayProblem errors carrying the RFC 9457 problem document.

import { AudioStream, VideoStream } from "./sdl-gateway-streaming.js";

export { AudioStream, VideoStream };

const PROBLEM_PREFIX = "urn:sdl-gateway:problem:";

/**
 * An HTTP problem the gateway answered (`application/problem+json`), or a WebSocket answer with
 * a `problem`.
 */
export class GatewayProblem extends Error {
  /**
   * @param {object} problem the problem document: `type`, `title`, `status`, `detail`, maybe
   *   `issues`, `resultCode` and `sdlResponse`
   * @param {number} status the HTTP status
   */
  constructor(problem, status) {
    super(problem?.detail ?? problem?.title ?? `HTTP ${status}`);
    this.name = "GatewayProblem";
    /** The whole problem document. */
    this.problem = problem ?? {};
    /** The HTTP status. */
    this.status = status;
  }

  /** The problem code: `app-not-found`, `invalid-parameters`, `head-unit-error` … */
  get code() {
    const type = this.problem.type ?? "";
    return type.startsWith(PROBLEM_PREFIX) ? type.slice(PROBLEM_PREFIX.length) : type;
  }
}

/**
 * Connects to a gateway: checks that it answers (asking `askForToken` for a token when it says
 * 401) and reads its RPC catalog, so that `app.rpc` knows every request function.
 *
 * @param {object} [options]
 * @param {string} [options.base] the gateway's URL; the page's origin by default
 * @param {string} [options.token] a bearer token (`--token`), if the gateway has tokens
 * @param {() => (string|null|Promise<string|null>)} [options.askForToken] asked when the gateway
 *   answers 401, again after each 401 (a wrong token) until it returns nothing or the token
 *   just refused; the token it returns is used from then on
 * @param {(scope: "read"|"control") => void} [options.onScope] told what the client learnt of
 *   its token's scope (see `Gateway.scope`)
 * @returns {Promise<Gateway>}
 */
export async function connect(options = {}) {
  const gateway = new Gateway(options);
  await gateway.loadSpec();
  return gateway;
}

/** A connection to one gateway: its apps, its image store, its simulator or headless HMI. */
export class Gateway {
  /** @param {{base?: string, token?: string, askForToken?: Function, onScope?: Function}} options */
  constructor({ base, token, askForToken, onScope } = {}) {
    /** The gateway's URL, without a trailing slash. */
    this.base = (base ?? globalThis.location?.origin ?? "").replace(/\/$/, "");
    /** The bearer token in use, if any. */
    this.token = token ?? null;
    this._askForToken = askForToken;
    this._onScope = onScope;
    /**
     * What the client learnt of its credential's scope: `null` until it knows, `"read"` after the
     * gateway answered 403 `forbidden` (a read-only token), `"control"` after a request that
     * needs control succeeded, or at once without tokens. The API tells no scope up front: the
     * client learns it from the answers.
     */
    this.scope = null;
    /** @type {Set<string>} the request functions of the gateway's RPC spec */
    this.functions = new Set();
    /** The RPC spec version. */
    this.specVersion = null;
    this._apps = new Map();
    this.apps = {
      /** @returns {Promise<object[]>} every app resource */
      list: async () => (await this.request("GET", "/v1/apps")).apps,
      /** @returns {Promise<object>} one app resource */
      get: async (id) => this.request("GET", `/v1/apps/${enc(id)}`),
      /**
       * Registers an app (RegisterAppInterface with the spec's defaults); `id` defaults to the
       * appID. Waits until the head unit answered (201), or throws its refusal.
       * @param {object} params `appName` and `appID` at least; `id`, `isMediaApplication`,
       *   `appHMIType`, `languageDesired`, `core` …
       * @returns {Promise<App>}
       */
      register: async (params) => {
        const body = { id: params.id ?? params.appID, ...params };
        const resource = await this.request("POST", "/v1/apps", body);
        return this.app(resource.id);
      },
      /**
       * Creates the app if there is none with this id, else returns the existing one when its
       * registration parameters are the same (`PUT /v1/apps/{id}`); safe to call on every load.
       * @returns {Promise<App>}
       */
      ensure: async (id, params) => {
        await this.request("PUT", `/v1/apps/${enc(id)}`, { id, ...params });
        return this.app(id);
      },
      /** Unregisters and forgets an app (`DELETE /v1/apps/{id}`). */
      remove: async (id) => {
        this._apps.get(id)?.close();
        this._apps.delete(id);
        await this.request("DELETE", `/v1/apps/${enc(id)}`);
      },
    };
    this.images = {
      /** @returns {Promise<object>} `{images: [{name, fileType, size}], bytes, capacity}` */
      list: async () => this.request("GET", "/v1/images"),
      /** Keeps an image (a Blob, ArrayBuffer or typed array) in the gateway's image store. */
      put: async (name, bytes) => this.request("PUT", `/v1/images/${enc(name)}`, bytes, { raw: true }),
      remove: async (name) => this.request("DELETE", `/v1/images/${enc(name)}`),
      /** An image of the store, as a Blob. */
      get: async (name) => this.blob(`/v1/images/${enc(name)}`),
    };
    this.spec = {
      /** One function of the RPC spec (`GET /v1/spec/functions/{name}`): its parameters and a template. */
      function: async (name) => this.request("GET", `/v1/spec/functions/${enc(name)}`),
      /** One struct or enum of the RPC spec (`GET /v1/spec/types/{name}`). */
      type: async (name) => this.request("GET", `/v1/spec/types/${enc(name)}`),
    };
    this.simulator = {
      /** The simulated head unit's apps. */
      apps: async () => this.request("GET", "/v1/simulator/apps"),
      /** What the simulated head unit holds for one app (HMI level, menu, subscriptions …). */
      app: async (app) => this.request("GET", `/v1/simulator/apps/${enc(app)}`),
      /** What the simulated screen shows for an app (a gateway app id or an SDL appID). */
      screen: async (app) => this.request("GET", `/v1/simulator/apps/${enc(app)}/screen`),
      /** Sets an app's HMI level (`FULL`, `LIMITED`, `BACKGROUND`, `NONE`). */
      setHMILevel: async (app, hmiLevel) => this.request("PUT", `/v1/simulator/apps/${enc(app)}/hmi`, { hmiLevel }),
      /** Changes an app's `{hmiLevel, audioStreamingState, systemContext}` (each optional). */
      setHMI: async (app, changes) => this.request("PUT", `/v1/simulator/apps/${enc(app)}/hmi`, changes),
      /** The driver picks a menu command (`MENU`) or says it (`VR`): OnCommand. */
      command: async (app, cmdID, triggerSource = "MENU") => this.request("POST", `/v1/simulator/apps/${enc(app)}/commands/${enc(cmdID)}`, { triggerSource }),
      /** Presses a hardware button, or a soft button with `{softButtonID, appID}`. */
      press: async (button, options = {}) => this.request("POST", `/v1/simulator/buttons/${enc(button)}/press`, options),
      /** Answers an app's open interaction: `{choiceID}`, `{text}`, `{result}` … */
      answer: async (app, answer) => this.request("POST", `/v1/simulator/apps/${enc(app)}/interaction`, answer),
      /** Sets vehicle data values (`{speed: 42}`; `null` goes back to the feed). */
      vehicleData: async (values) => this.request("PUT", "/v1/simulator/vehicle-data", values),
      /** The vehicle data apps see now: the feed's values with the overrides over them. */
      currentVehicleData: async () => this.request("GET", "/v1/simulator/vehicle-data"),
      driverDistraction: async (state) => this.request("PUT", "/v1/simulator/driver-distraction", { state }),
      /** `{state}`: DD_ON or DD_OFF. */
      driverDistractionState: async () => this.request("GET", "/v1/simulator/driver-distraction"),
      /** The simulator's traffic log, newest last. */
      log: async (limit = 100) => this.request("GET", `/v1/simulator/log?limit=${limit}`),
      /** The vehicle data feed: `{source, playing, elapsedSeconds}`. */
      feed: async () => this.request("GET", "/v1/simulator/feed"),
      /** Pauses (`{playing: false}`), plays on (`{playing: true}`) or restarts (`{restart: true}`) the feed. */
      setFeed: async (change) => this.request("PUT", "/v1/simulator/feed", change),
      /** The faults in force, oldest first. */
      faults: async () => this.request("GET", "/v1/simulator/faults"),
      /** Injects a fault: `{function, resultCode | delayMs | hang | dropConnection}` or a `burst`. */
      addFault: async (fault) => this.request("POST", "/v1/simulator/faults", fault),
      /** Clears every fault. */
      clearFaults: async () => this.request("DELETE", "/v1/simulator/faults"),
      /**
       * The driver touches the app's projected screen: `{type: "BEGIN"|"MOVE"|"END"|"CANCEL", x, y, id}`
       * (the video's pixels), `{events: […]}` or an array; OnTouchEvent to the app. `{sent}`.
       */
      touch: async (app, touch) => this.request("POST", `/v1/simulator/apps/${enc(app)}/touch`, touch),
      /**
       * The files an app put on the simulated head unit (PutFile).
       * @returns {Promise<Array<{name: string, size: number, fileType: string, persistent: boolean,
       *   systemFile: boolean, complete: boolean, length?: number}>>}
       */
      files: async (app) => this.request("GET", `/v1/simulator/apps/${enc(app)}/files`),
      /**
       * The bytes of a file an app put on the simulated head unit, as a Blob typed by its
       * FileType (`image/png` …); a GatewayProblem `file-not-found`, or `file-incomplete` while
       * its chunked upload is under way.
       * @returns {Promise<Blob>}
       */
      file: async (app, name) => this.blob(`/v1/simulator/apps/${enc(app)}/files/${enc(name)}`),
    };
    /** The headless HMI of a real SDL Core (`serve --hmi`): the simulator's driving operations on Core. */
    this.hmi = {
      /** `{core, phase, apps}`: whether the HMI is connected to Core and ready. */
      status: async () => this.request("GET", "/v1/hmi/status"),
      /** The apps Core registered, with Core's HMI app ids. */
      apps: async () => this.request("GET", "/v1/hmi/apps"),
      /** What the HMI shows for an app (a gateway app id or Core's HMI app id). */
      screen: async (app) => this.request("GET", `/v1/hmi/apps/${enc(app)}/screen`),
      setHMILevel: async (app, hmiLevel) => this.request("PUT", `/v1/hmi/apps/${enc(app)}/hmi`, { hmiLevel }),
      /** Presses a button as the driver (`{mode}`; `{appID, customButtonID}` for an app's own). */
      press: async (button, options = {}) => this.request("POST", `/v1/hmi/buttons/${enc(button)}/press`, options),
      answer: async (app, answer) => this.request("POST", `/v1/hmi/apps/${enc(app)}/interaction`, answer),
      /** The driver picks a menu command (`MENU`) or says it (`VR`): UI/VR.OnCommand to Core. */
      command: async (app, cmdID, triggerSource = "MENU") => this.request("POST", `/v1/hmi/apps/${enc(app)}/commands/${enc(cmdID)}`, { triggerSource }),
      /** A file Core named for the app (its storage folder, when the gateway can read it), as a Blob. */
      file: async (app, name) => this.blob(`/v1/hmi/apps/${enc(app)}/files/${enc(name)}`),
      /** The driver touches the app's video (the simulator's body): UI.OnTouchEvent to Core, for the NAVIGATION/PROJECTION app in FULL. `{sent}`. */
      touch: async (app, touch) => this.request("POST", `/v1/hmi/apps/${enc(app)}/touch`, touch),
      vehicleData: async (values) => this.request("PUT", "/v1/hmi/vehicle-data", values),
      /** The vehicle data the HMI gives Core now (the drive's, with the overrides over it). */
      currentVehicleData: async () => this.request("GET", "/v1/hmi/vehicle-data"),
      driverDistraction: async (state) => this.request("PUT", "/v1/hmi/driver-distraction", { state }),
      /** `{state}`: the driver distraction state the HMI last sent Core. */
      driverDistractionState: async () => this.request("GET", "/v1/hmi/driver-distraction"),
    };
  }

  /** Reads the RPC catalog (`GET /v1/spec`): the names `app.rpc` accepts. */
  async loadSpec() {
    const spec = await this.request("GET", "/v1/spec");
    if (!this.token) this._learnScope("control"); // no token asked for: the gateway has none
    this.specVersion = spec.version;
    this.functions = new Set(spec.functions.filter((f) => f.messageType === "request").map((f) => f.name));
    return spec;
  }

  /**
   * The app `id` (no request is made): its RPCs, managers, files and events.
   * @returns {App}
   */
  app(id) {
    if (!this._apps.has(id)) this._apps.set(id, new App(this, id));
    return this._apps.get(id);
  }

  /**
   * One request to the API: JSON in and out, the token attached, a problem thrown as a
   * GatewayProblem. With `raw`, the body is sent as bytes (`application/octet-stream`). A 401
   * asks `askForToken` (again after each wrong token) and retries with its answer.
   * @returns {Promise<any>} the parsed JSON body (`null` for 204)
   */
  async request(method, path, body, { raw = false } = {}) {
    const headers = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let payload;
    if (body !== undefined) {
      headers["content-type"] = raw ? "application/octet-stream" : "application/json";
      payload = raw ? body : JSON.stringify(body);
    }
    const response = await fetch(this.base + path, { method, headers, body: payload });
    if (response.status === 401 && this._askForToken) {
      const token = (await this._askForToken())?.trim();
      // The same token again would be refused again: only a new one is tried.
      if (token && token !== this.token) {
        this.token = token;
        this.scope = null;
        return this.request(method, path, body, { raw });
      }
    }
    const text = await response.text();
    const parsed = text && (response.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text || null;
    if (!response.ok) {
      const problem = new GatewayProblem(typeof parsed === "object" ? parsed : { detail: parsed }, response.status);
      if (problem.status === 403 && problem.code === "forbidden") this._learnScope("read");
      throw problem;
    }
    if (!["GET", "HEAD"].includes(method) && path !== "/v1/tickets") this._learnScope("control");
    return parsed;
  }

  _learnScope(scope) {
    if (this.scope === scope) return;
    this.scope = scope;
    try {
      this._onScope?.(scope);
    } catch (error) {
      console.error(error);
    }
  }

  /** A GET of bytes (a WAV file, an image) as a Blob, the token attached. */
  async blob(path) {
    const headers = this.token ? { authorization: `Bearer ${this.token}` } : {};
    const response = await fetch(this.base + path, { headers });
    if (!response.ok) {
      const text = await response.text();
      throw new GatewayProblem(text.startsWith("{") ? JSON.parse(text) : { detail: text }, response.status);
    }
    return response.blob();
  }

  /** A single-use ticket for an EventSource (`?ticket=`), valid 30 s. */
  async ticket() {
    return (await this.request("POST", "/v1/tickets")).ticket;
  }

  /** Closes every app's event WebSocket. */
  close() {
    for (const app of this._apps.values()) app.close();
  }
}

/** One app of the gateway: `rpc`, the managers, files, and its events. */
export class App {
  constructor(gateway, id) {
    /** The gateway app id. */
    this.id = id;
    this.gateway = gateway;
    const path = `/v1/apps/${enc(id)}`;
    const call = (method, suffix, body, options) => gateway.request(method, path + suffix, body, options);
    /**
     * One method per request function of the RPC spec: `app.rpc.Show({mainField1: "Hi"})`
     * answers the head unit's response; a refusal throws its problem. Unknown names throw a
     * TypeError at once.
     */
    this.rpc = new Proxy({}, {
      get: (_, name) => {
        if (typeof name !== "string" || name === "then") return undefined;
        if (!gateway.functions.has(name)) throw new TypeError(`${name} is not a request function of RPC spec ${gateway.specVersion}`);
        return (params = {}, { timeout } = {}) => call("POST", `/rpc/${enc(name)}${timeout ? `?timeout=${timeout}` : ""}`, params);
      },
      has: (_, name) => gateway.functions.has(name),
      ownKeys: () => [...gateway.functions],
      getOwnPropertyDescriptor: (_, name) => (gateway.functions.has(name) ? { enumerable: true, configurable: true } : undefined),
    });
    this.screen = {
      get: () => call("GET", "/screen"),
      /** Declares the whole screen; the answer lists the RPCs sent and warnings. */
      set: (screen) => call("PUT", "/screen", screen),
      /** Changes part of the declared screen (a JSON merge patch). */
      patch: (patch) => call("PATCH", "/screen", patch),
    };
    this.media = { get: () => call("GET", "/media"), set: (media) => call("PUT", "/media", media) };
    this.menu = {
      get: () => call("GET", "/menu"),
      /** Declares the menu tree: `[{id, title, icon, voiceCommands, children}]`. */
      set: (cells, { layout } = {}) => call("PUT", "/menu", layout ? { menu: cells, layout } : { menu: cells }),
    };
    /**
     * Sends several requests in one call (`POST /v1/apps/{id}/batch`): `requests` are
     * `{function, params}`; answers `{results: [{function, status, response | problem}]}`.
     * @param {{function: string, params?: object}[]} requests
     * @param {{mode?: "sequential"|"concurrent", stopOnError?: boolean}} [options] the
     *   gateway's defaults: sequential, stopping at the first error
     */
    this.batch = (requests, options = {}) => call("POST", "/batch", { ...options, requests });
    this.voiceCommands = { get: () => call("GET", "/voice-commands"), set: (commands) => call("PUT", "/voice-commands", commands) };
    /** Presents choices or a keyboard: answers `{choice | text, trigger, result}`. */
    this.interactions = { present: (interaction) => call("POST", "/interactions", interaction) };
    /** Shows an alert: answers `{button, result}`. */
    this.alerts = { show: (alert) => call("POST", "/alerts", alert) };
    this.files = {
      list: () => call("GET", "/files"),
      remove: (name) => call("DELETE", `/files/${enc(name)}`),
      /** The gateway's copy of an image it uploaded for the app (`GET …/files/{name}`), as a Blob. */
      get: (name) => gateway.blob(`${path}/files/${enc(name)}`),
      /**
       * Uploads a file (PutFile); `onProgress(sent, total)` reports the bytes sent.
       * @param {string} name
       * @param {Blob|ArrayBuffer|Uint8Array} bytes
       * @param {{persistent?: boolean, onProgress?: (sent: number, total: number) => void}} [options]
       */
      upload: (name, bytes, { persistent = false, onProgress } = {}) =>
        upload(gateway, `${path}/files/${enc(name)}${persistent ? "?persistent=true" : ""}`, bytes, onProgress),
    };
    this.subscriptions = {
      /** SubscribeVehicleData for `names`, counted for this page's owner. */
      vehicleData: (names, owner = "browser") => call("PUT", `/subscriptions/vehicle-data?owner=${enc(owner)}`, { names }),
      unsubscribeVehicleData: (names, owner = "browser") => call("DELETE", `/subscriptions/vehicle-data?names=${names.map(enc).join(",")}&owner=${enc(owner)}`),
      button: (name, owner = "browser") => call("PUT", `/subscriptions/buttons/${enc(name)}?owner=${enc(owner)}`),
      unsubscribeButton: (name, owner = "browser") => call("DELETE", `/subscriptions/buttons/${enc(name)}?owner=${enc(owner)}`),
    };
    this.audio = {
      /**
       * Records the car's microphone (PerformAudioPassThru through `POST …/audio-pass-thru`):
       * `options` are its parameters (`seconds`, `samplingRate`, `bitsPerSample`,
       * `audioPassThruDisplayText1` …; 16 kHz 16-bit PCM for 5 s by default) and `onChunk`.
       * Answers, when the recording ends (at `seconds`, or `app.rpc.EndAudioPassThru()`),
       * `{blob, response, recording}`: `blob` is the WAV file (`audio/wav`, playable by an
       * `<audio>` element). While it runs, `.chunks` (a ReadableStream) and `onChunk` give each
       * chunk as `{chunk, format, bytes}` with `bytes` a Uint8Array of PCM.
       * @returns {Promise<{blob: Blob, response: object, recording: object}> & {chunks: ReadableStream}}
       */
      record: (options) => record(this, options),
      /** The last recording, however it was started, as a WAV Blob. */
      lastWAV: () => gateway.blob(`${path}/audio-pass-thru/last.wav`),
    };
    /**
     * Projection (sdl-gateway-streaming.js): `app.video.start(canvasOrVideo, {fps, bitrate,
     * keyframeInterval})` streams the element as H.264 (WebCodecs) over the app's video
     * WebSocket; `stop()`, `status()`, `stats` (frames, bytes, dropped), `onTouch(listener)`.
     */
    this.video = new VideoStream(this);
    /** PCM to the head unit's audio streaming service: `start()`, `write(samples)`, `stop()`. */
    this.audioStream = new AudioStream(this);
    this._listeners = new Map();
    this._socket = null;
    /** While `on` with `history` reads where the history starts: the socket opens after it. */
    this._opening = null;
    this._lastSeq = null;
    this._closed = false;
    this._retry = 0;
    this._pending = new Map();
    this._nextID = 0;
  }

  /** The app resource (`GET /v1/apps/{id}`): its summary, with `links`. */
  get() {
    return this.gateway.request("GET", `/v1/apps/${enc(this.id)}`);
  }

  /** What the head unit told the app (`GET /v1/apps/{id}/capabilities`): `registration`, `systemCapabilities`, `permissions`. */
  capabilities() {
    return this.gateway.request("GET", `/v1/apps/${enc(this.id)}/capabilities`);
  }

  /**
   * Calls `listener(data, event)` for each event of `type` (`"*"` for every one), over the app's
   * event WebSocket, opened on the first call. The socket reconnects by itself with `since`, so
   * nothing is missed that the gateway still holds; what it no longer holds arrives as a `gap`
   * event `{missed}`. The client's own `socket` events say `{state: "open", since}` and
   * `{state: "closed", code, lastSeq}`.
   *
   * With `{history: N}`, a call that opens the socket starts it with the app's last N events
   * the gateway still holds (its event ring, through `since`), so a page opened after a script
   * did its work sees what happened; without it, only events from now on arrive.
   * @param {string} type
   * @param {(data: any, event: object) => void} listener
   * @param {{history?: number}} [options]
   * @returns {() => void} removes the listener
   */
  on(type, listener, { history = 0 } = {}) {
    if (!this._listeners.has(type)) this._listeners.set(type, new Set());
    this._listeners.get(type).add(listener);
    if (!this._socket && !this._opening && type !== "socket") {
      if (history > 0) this._opening = this._openWithHistory(history);
      else this._open();
    }
    return () => this._listeners.get(type)?.delete(listener);
  }

  /** Opens the socket `count` events before the app's newest (`lastEventSeq` of its resource). */
  async _openWithHistory(count) {
    this._closed = false;
    try {
      const { lastEventSeq = 0 } = await this.get();
      this._lastSeq = Math.max(0, lastEventSeq - count);
    } catch (error) {
      console.error(error); // opens without the history
    } finally {
      this._opening = null;
      if (!this._closed && !this._socket) this._open();
    }
  }

  /** The seq of the last event received (what a reconnection asks to continue after). */
  get lastSeq() {
    return this._lastSeq;
  }

  /** Closes the event WebSocket for good. */
  close() {
    this._closed = true;
    this._socket?.close(1000);
    this._socket = null;
  }

  _emit(type, data, event) {
    // "*" is every event of the gateway; the client's own `socket` events go to their listeners only.
    for (const key of event ? [type, "*"] : [type]) {
      for (const listener of this._listeners.get(key) ?? []) {
        try {
          listener(data, event);
        } catch (error) {
          console.error(error);
        }
      }
    }
  }

  _open() {
    this._closed = false;
    const gateway = this.gateway;
    const url = new URL(`${gateway.base || globalThis.location.origin}/v1/apps/${enc(this.id)}/events`);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    if (this._lastSeq !== null) url.searchParams.set("since", String(this._lastSeq));
    // A browser's WebSocket cannot send Authorization: the token travels as a subprotocol, which
    // the gateway reads and never echoes (it selects sdl-gateway.v1).
    const protocols = gateway.token ? ["sdl-gateway.v1", `bearer.${gateway.token}`] : ["sdl-gateway.v1"];
    const socket = new WebSocket(url, protocols);
    this._socket = socket;
    socket.onopen = () => {
      this._retry = 0;
      this._emit("socket", { state: "open", since: this._lastSeq }, null);
    };
    socket.onmessage = (message) => {
      const event = JSON.parse(message.data);
      if (event.type === undefined) return this._answer(event);
      if (typeof event.seq === "number") this._lastSeq = event.seq;
      this._emit(event.type, event.data, event);
    };
    socket.onclose = (close) => {
      if (this._socket !== socket) return;
      this._socket = null;
      for (const { reject } of this._pending.values()) reject(new GatewayProblem({ detail: "the event socket closed before the answer" }, 503));
      this._pending.clear();
      this._emit("socket", { state: "closed", code: close.code, lastSeq: this._lastSeq }, null);
      if (this._closed) return;
      const delay = Math.min(5000, 250 * 2 ** this._retry++);
      setTimeout(() => {
        if (!this._closed && !this._socket) this._open();
      }, delay);
    };
  }

  /**
   * Sends an RPC over the event WebSocket (opened if needed) and answers its response; a
   * refusal throws its problem.
   */
  async send(functionName, params = {}) {
    if (!this.gateway.functions.has(functionName)) throw new TypeError(`${functionName} is not a request function`);
    if (this._opening) await this._opening;
    if (!this._socket) this._open();
    const socket = this._socket;
    if (socket.readyState === WebSocket.CONNECTING) await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true });
      socket.addEventListener("close", () => reject(new GatewayProblem({ detail: "the event socket closed" }, 503)), { once: true });
    });
    const id = `c${++this._nextID}`;
    return new Promise((resolve, reject) => {
      this._pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, function: functionName, params }));
    });
  }

  _answer(answer) {
    const pending = this._pending.get(answer.id);
    if (!pending) return;
    this._pending.delete(answer.id);
    if (answer.problem) pending.reject(new GatewayProblem(answer.problem, answer.status));
    else pending.resolve(answer.response);
  }
}

function enc(value) {
  return encodeURIComponent(value);
}

/** `app.audio.record`: the recording's chunks from the app's event socket, then its WAV. */
function record(app, { onChunk, ...parameters } = {}) {
  let stream;
  const chunks = new ReadableStream({ start: (controller) => (stream = controller) });
  const result = (async () => {
    // Follow the app's events from its newest seq on, so that the socket misses no chunk that
    // comes before it is subscribed (a new socket replays from there).
    if (!app._socket && !app._opening && app._lastSeq === null) app._lastSeq = (await app.get()).lastEventSeq ?? 0;
    let received = 0;
    let expected = null;
    let allArrived;
    const arrived = new Promise((resolve) => (allArrived = resolve));
    const stop = app.on("audioPassThru", (data) => {
      const chunk = { chunk: data.chunk, format: data.format, bytes: Uint8Array.from(atob(data.audio ?? ""), (c) => c.charCodeAt(0)) };
      stream.enqueue(chunk);
      try {
        onChunk?.(chunk);
      } catch (error) {
        console.error(error);
      }
      if (++received === expected) allArrived();
    });
    try {
      const answer = await app.gateway.request("POST", `/v1/apps/${enc(app.id)}/audio-pass-thru`, parameters);
      expected = answer.recording?.chunks ?? 0;
      // The answer can overtake the socket's last chunks: wait for them, 2 s at most.
      if (received < expected) await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, 2000))]);
      const blob = await app.audio.lastWAV();
      return { blob, response: answer.response, recording: answer.recording };
    } finally {
      stop();
      stream.close();
    }
  })();
  return Object.assign(result, { chunks });
}

/** PUT of raw bytes with upload progress (XMLHttpRequest: fetch reports none). */
function upload(gateway, path, bytes, onProgress) {
  if (!onProgress || typeof XMLHttpRequest === "undefined") return gateway.request("PUT", path, bytes, { raw: true });
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("PUT", gateway.base + path);
    if (gateway.token) request.setRequestHeader("authorization", `Bearer ${gateway.token}`);
    request.setRequestHeader("content-type", "application/octet-stream");
    request.upload.onprogress = (progress) => onProgress(progress.loaded, progress.total);
    request.onload = () => {
      const body = request.responseText ? JSON.parse(request.responseText) : null;
      if (request.status >= 200 && request.status < 300) resolve(body);
      else reject(new GatewayProblem(body, request.status));
    };
    request.onerror = () => reject(new GatewayProblem({ detail: "the upload failed (network)" }, 0));
    request.send(bytes);
  });
}
