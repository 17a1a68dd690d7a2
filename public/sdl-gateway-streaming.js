// sdl-gateway-streaming.js: projection for sdl-gateway.js (`app.video`, `app.audioStream`). A
// canvas or video element is encoded as H.264 (baseline, Annex B) by the browser's WebCodecs
// VideoEncoder and sent to the app's video WebSocket (`/v1/apps/{id}/video`), which the gateway
// sends on as the SDL video service's frames (docs/protocol.md, the streaming services); the head
// unit's touches (OnTouchEvent) come back mapped onto the element. PCM audio goes the same way to
// `/v1/apps/{id}/audio-stream`. Memory stays bounded: while the socket holds more than its bound,
// frames are dropped (and counted), never queued.

/** The H.264 profile and levels tried, smallest first: constrained baseline 3.0, 3.1, 4.0, 4.2. */
/** An H.264 access unit delimiter (NAL type 9, any picture type): Annex B start code, 0x09, 0xF0. */
const ACCESS_UNIT_DELIMITER = new Uint8Array([0, 0, 0, 1, 0x09, 0xf0]);

const H264_LEVELS = [
  { codec: "avc1.42E01E", macroblocks: 1620, perSecond: 40500 },
  { codec: "avc1.42E01F", macroblocks: 3600, perSecond: 108000 },
  { codec: "avc1.42E028", macroblocks: 8192, perSecond: 245760 },
  { codec: "avc1.42E02A", macroblocks: 8704, perSecond: 522240 },
];

const even = (value) => Math.max(2, Math.round(value / 2) * 2);

/** A binary WebSocket to `path` of the gateway, authenticated as the event socket is; resolves once open. */
function binarySocket(gateway, path) {
  const url = new URL(`${gateway.base || globalThis.location.origin}${path}`);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(url, gateway.token ? ["sdl-gateway.v1", `bearer.${gateway.token}`] : ["sdl-gateway.v1"]);
  socket.binaryType = "arraybuffer";
  return new Promise((resolve, reject) => {
    socket.onopen = () => resolve(socket);
    socket.onerror = () => reject(new Error(`the WebSocket ${path} did not open`));
  });
}

/** Waits until `socket` sent what it holds (at most `limit` ms), then closes it. */
async function drainAndClose(socket, limit = 2000) {
  const started = performance.now();
  while (socket.readyState === WebSocket.OPEN && socket.bufferedAmount > 0 && performance.now() - started < limit) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (socket.readyState === WebSocket.OPEN) socket.close(1000);
}

/**
 * The head unit's VideoStreamingCapability (MOBILE_API.xml): the app's system capabilities as the
 * gateway holds them, else asked for with GetSystemCapability; null when the head unit has none.
 */
export async function videoStreamingCapability(app) {
  const held = (await app.capabilities().catch(() => null))?.systemCapabilities?.VIDEO_STREAMING;
  if (held) return held;
  if (!app.gateway.functions.has("GetSystemCapability")) return null;
  try {
    const answer = await app.rpc.GetSystemCapability({ systemCapabilityType: "VIDEO_STREAMING" });
    return answer?.systemCapability?.videoStreamingCapability ?? null;
  } catch {
    return null;
  }
}

/** The element's own pixel size: a canvas's width/height, a video's decoded size. */
function intrinsicSize(element) {
  if (typeof HTMLVideoElement !== "undefined" && element instanceof HTMLVideoElement) return { width: element.videoWidth, height: element.videoHeight };
  return { width: element.width, height: element.height };
}

/**
 * `app.video`: the app's video stream from a canvas or video element (WebCodecs VideoEncoder,
 * H.264 constrained baseline, Annex B with SPS/PPS before each keyframe), and the head unit's touches.
 */
export class VideoStream {
  constructor(app) {
    this.app = app;
    /** `"stopped"`, `"starting"`, `"streaming"`, or `"ended"` (the head unit ended it). */
    this.state = "stopped";
    /** What the gateway answered to PUT /video: `{accepted: {codec, protocol, width, height, mtu}, …}`. */
    this.accepted = null;
    /** The encoded size and the frame rate the stream was started with. */
    this.width = 0;
    this.height = 0;
    this.fps = 0;
    this._capability = undefined;
    /** Counters: frames captured and encoded, chunks and bytes sent, frames dropped (the socket was full). */
    this.stats = { frames: 0, chunks: 0, bytes: 0, dropped: 0, keyframes: 0 };
    this._element = null;
    this._run = null;
  }

  /**
   * Starts the video service (`PUT /v1/apps/{id}/video`) and streams `element` to it.
   * @param {HTMLCanvasElement|HTMLVideoElement|OffscreenCanvas} element what is shown on the head unit
   * @param {object} [options]
   * @param {number} [options.fps] frames a second (30, at most the capability's `preferredFPS`)
   * @param {number} [options.bitrate] bits a second (2 Mbit/s, at most the capability's `maxBitrate`)
   * @param {number} [options.keyframeInterval] seconds between keyframes (2)
   * @param {number} [options.width] the encoded size: the capability's `preferredResolution`, else the element's
   * @param {number} [options.height]
   * @param {number} [options.maxBufferedBytes] the socket's bound: a frame is dropped while it holds more (a second of bitrate, 256 KiB at least)
   * @returns {Promise<object>} the gateway's answer (state, accepted parameters, counters)
   */
  /** The head unit's VideoStreamingCapability (`preferredResolution`, `scale`, `maxBitrate`, `preferredFPS` …), read once; null without one. */
  async capability() {
    if (this._capability === undefined) this._capability = await videoStreamingCapability(this.app);
    return this._capability;
  }

  async start(element, options = {}) {
    if (this._run) throw new Error("app.video is already streaming: stop() it first");
    if (typeof VideoEncoder === "undefined") throw new Error("this browser has no WebCodecs VideoEncoder (a secure context is needed: https or http://localhost)");
    this.state = "starting";
    // One run of the stream: `halting` once it is being stopped, `stopped` once nothing more is sent.
    const run = { halting: null, stopped: false, timer: null, socket: null, encoder: null, offListener: null, forceKeyframe: false };
    this._run = run;
    try {
      const capability = await this.capability();
      const own = intrinsicSize(element);
      const preferred = capability?.preferredResolution;
      const width = even(options.width ?? preferred?.resolutionWidth ?? own.width);
      const height = even(options.height ?? preferred?.resolutionHeight ?? own.height);
      const fps = Math.max(1, Math.min(options.fps ?? 30, capability?.preferredFPS || Infinity));
      const bitrate = Math.min(options.bitrate ?? 2_000_000, capability?.maxBitrate ? capability.maxBitrate * 1000 : Infinity);
      const path = `/v1/apps/${encodeURIComponent(this.app.id)}/video`;
      const answer = await this.app.gateway.request("PUT", path, { codec: "H264", protocol: "RAW", width, height });
      this.accepted = answer;
      // The head unit may answer another size (StartServiceACK): the stream is encoded at that one.
      this.width = even(answer?.accepted?.width ?? width);
      this.height = even(answer?.accepted?.height ?? height);
      this.fps = fps;
      this._element = element;
      run.offListener = this.app.on("videoStreaming", (event) => {
        if (event?.state === "ended" || event?.state === "refused") this._halt(run, "ended");
      });
      run.socket = await binarySocket(this.app.gateway, path);
      run.socket.onclose = () => this._halt(run, this.state === "streaming" ? "ended" : this.state);
      const bound = options.maxBufferedBytes ?? Math.max(256 * 1024, bitrate / 8);
      run.encoder = await this._encoder(run, bitrate, bound);
      this.state = "streaming";
      this._capture(run, options.keyframeInterval ?? 2, bound);
      return answer;
    } catch (error) {
      await this._halt(run, "stopped");
      throw error;
    }
  }

  /** A VideoEncoder at the smallest H.264 level that holds the size and rate and the browser supports. */
  async _encoder(run, bitrate, bound) {
    const macroblocks = Math.ceil(this.width / 16) * Math.ceil(this.height / 16);
    const base = { width: this.width, height: this.height, bitrate, framerate: this.fps, avc: { format: "annexb" }, latencyMode: "realtime" };
    let config = null;
    for (const level of H264_LEVELS.filter((l) => l.macroblocks >= macroblocks && l.perSecond >= macroblocks * this.fps)) {
      const candidate = { ...base, codec: level.codec };
      if ((await VideoEncoder.isConfigSupported(candidate)).supported) {
        config = candidate;
        break;
      }
    }
    if (!config) throw new Error(`this browser cannot encode H.264 baseline at ${this.width}×${this.height}, ${this.fps} fps`);
    let needKeyframe = false;
    const encoder = new VideoEncoder({
      output: (chunk) => {
        const socket = run.socket;
        if (run.stopped || socket.readyState !== WebSocket.OPEN) return;
        // A delta frame after a dropped one would decode wrong: drop until the next keyframe.
        if (socket.bufferedAmount > bound || (needKeyframe && chunk.type !== "key")) {
          needKeyframe = true;
          run.forceKeyframe = true;
          this.stats.dropped++;
          return;
        }
        needKeyframe = false;
        // The picture, then an access unit delimiter: a head unit that splits the stream into
        // pictures (the page's preview) knows at once that this one is whole.
        const bytes = new Uint8Array(chunk.byteLength + ACCESS_UNIT_DELIMITER.length);
        chunk.copyTo(bytes);
        bytes.set(ACCESS_UNIT_DELIMITER, chunk.byteLength);
        socket.send(bytes);
        this.stats.chunks++;
        this.stats.bytes += bytes.byteLength;
        if (chunk.type === "key") this.stats.keyframes++;
      },
      error: (error) => {
        console.error(error);
        this._halt(run, "stopped");
      },
    });
    encoder.configure(config);
    this.codec = config.codec;
    return encoder;
  }

  /** Each 1/fps s: the element's picture as a VideoFrame at the encoded size, unless the link is behind. */
  _capture(run, keyframeInterval, bound) {
    const element = this._element;
    const canvas = new OffscreenCanvas(this.width, this.height);
    const context = canvas.getContext("2d");
    const started = performance.now();
    let lastKeyframe = -Infinity;
    run.timer = setInterval(() => {
      if (run.halting) return;
      const own = intrinsicSize(element);
      if (!own.width || !own.height) return; // a video element before its first frame
      // Dropped before encoding while the socket or the encoder is behind: nothing piles up.
      if (run.socket.bufferedAmount > bound || run.encoder.encodeQueueSize > 2) {
        this.stats.dropped++;
        return;
      }
      context.drawImage(element, 0, 0, this.width, this.height);
      const now = performance.now();
      const frame = new VideoFrame(canvas, { timestamp: Math.round((now - started) * 1000), duration: Math.round(1e6 / this.fps) });
      const keyFrame = run.forceKeyframe || now - lastKeyframe >= keyframeInterval * 1000;
      if (keyFrame) {
        lastKeyframe = now;
        run.forceKeyframe = false;
      }
      try {
        run.encoder.encode(frame, { keyFrame });
        this.stats.frames++;
      } finally {
        frame.close();
      }
    }, 1000 / this.fps);
  }

  /**
   * Stops capturing, sends what the encoder still holds, closes it and the socket (after it sent
   * what it holds). Once per run: a second call waits for the first.
   */
  _halt(run, state) {
    run.halting ??= (async () => {
      clearInterval(run.timer);
      run.offListener?.();
      if (run.encoder && run.encoder.state === "configured") await run.encoder.flush().catch(() => {});
      run.stopped = true;
      if (run.encoder && run.encoder.state !== "closed") run.encoder.close();
      if (run.socket) await drainAndClose(run.socket);
      if (this._run === run) {
        this._run = null;
        this.state = state;
      }
    })();
    return run.halting;
  }

  /** Stops streaming: the last frames sent, the socket closed, then EndService (`DELETE /v1/apps/{id}/video`). */
  async stop() {
    const run = this._run;
    if (run) await this._halt(run, "stopped");
    this.state = "stopped";
    try {
      await this.app.gateway.request("DELETE", `/v1/apps/${encodeURIComponent(this.app.id)}/video`);
    } catch (error) {
      // Already ended (by the head unit, or the app left FULL/LIMITED): nothing to end.
      if (error?.status !== 404 && error?.status !== 409) throw error;
    }
  }

  /** The gateway's view of the stream (`GET /v1/apps/{id}/video`): state, accepted parameters, frames, bytes, bit rate. */
  status() {
    return this.app.gateway.request("GET", `/v1/apps/${encodeURIComponent(this.app.id)}/video`);
  }

  /**
   * Calls `listener(touch)` for each of the head unit's touches (OnTouchEvent, as `touchEvent`
   * events) with the points mapped from the video's pixels onto the element's own (a canvas's
   * drawing coordinates, a video's decoded pixels): `{type, touches: [{id, x, y, ts}], event}`.
   * The head unit touches in the video's resolution (the capability's `preferredResolution`): a
   * canvas of that size divided by the capability's `scale`, as the SDL app libraries size their
   * view, gets each coordinate divided by `scale`.
   * @returns {() => void} removes the listener
   */
  onTouch(listener) {
    return this.app.on("touchEvent", (data, event) => {
      const element = this._element;
      const own = element ? intrinsicSize(element) : null;
      const sx = own?.width && this.width ? own.width / this.width : 1 / (this._capability?.scale ?? 1);
      const sy = own?.height && this.height ? own.height / this.height : 1 / (this._capability?.scale ?? 1);
      const touches = (data?.event ?? []).map((touch) => {
        const point = touch.c?.[touch.c.length - 1] ?? { x: 0, y: 0 };
        return { id: touch.id, x: point.x * sx, y: point.y * sy, ts: touch.ts?.[touch.ts.length - 1] };
      });
      listener({ type: data?.type, touches, event: data });
    });
  }

  /** The size the app should draw at: the capability's resolution divided by its `scale` (or the encoded size); after `capability()`. */
  viewSize() {
    const scale = this._capability?.scale ?? 1;
    const r = this._capability?.preferredResolution;
    return r ? { width: Math.round(r.resolutionWidth / scale), height: Math.round(r.resolutionHeight / scale), scale } : { width: this.width, height: this.height, scale };
  }
}

/** PCM sample formats of AudioPassThruCapabilities (pcmStreamCapabilities): SamplingRate and BitsPerSample. */
const RATES = { "8KHZ": 8000, "16KHZ": 16000, "22KHZ": 22050, "44KHZ": 44100 };

/**
 * `app.audioStream`: PCM to the head unit's audio streaming service, as its
 * `pcmStreamCapabilities` says (16 kHz, 16-bit mono by default). `write(samples)` takes Float32
 * samples in [-1, 1] at that rate (or ready Int16 samples / bytes) and sends them as little-endian
 * PCM; over the socket's bound a write is dropped (counted in `stats.dropped`).
 */
export class AudioStream {
  constructor(app) {
    this.app = app;
    this.state = "stopped";
    this.format = null;
    this.stats = { writes: 0, bytes: 0, dropped: 0 };
    this._socket = null;
    this._bound = 0;
  }

  /**
   * Starts the audio service (`PUT /v1/apps/{id}/audio-stream`) and opens its WebSocket.
   * @param {{maxBufferedBytes?: number}} [options] the socket's bound (one second of audio by default)
   * @returns {Promise<object>} the gateway's answer
   */
  async start({ maxBufferedBytes } = {}) {
    if (this._socket) throw new Error("app.audioStream is already streaming: stop() it first");
    const capabilities = await this.app.capabilities().catch(() => null);
    const pcm = capabilities?.registration?.pcmStreamCapabilities ?? {};
    const sampleRate = RATES[pcm.samplingRate] ?? 16000;
    const bits = pcm.bitsPerSample === "8_BIT" ? 8 : 16;
    this.format = { sampleRate, bitsPerSample: bits, channels: 1 };
    const path = `/v1/apps/${encodeURIComponent(this.app.id)}/audio-stream`;
    const answer = await this.app.gateway.request("PUT", path, {});
    this._bound = maxBufferedBytes ?? sampleRate * (bits / 8);
    this._socket = await binarySocket(this.app.gateway, path);
    this._socket.onclose = () => {
      this._socket = null;
      this.state = "stopped";
    };
    this.state = "streaming";
    return answer;
  }

  /** Sends PCM: a Float32Array (converted to the format), an Int16Array, or bytes as they are. Returns false when dropped. */
  write(samples) {
    const socket = this._socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) throw new Error("app.audioStream is not streaming: start() it first");
    let bytes;
    if (samples instanceof Float32Array) {
      if (this.format.bitsPerSample === 8) {
        bytes = Uint8Array.from(samples, (s) => Math.round((Math.max(-1, Math.min(1, s)) + 1) * 127.5));
      } else {
        const view = new DataView(new ArrayBuffer(samples.length * 2));
        samples.forEach((s, i) => view.setInt16(i * 2, Math.round(Math.max(-1, Math.min(1, s)) * 32767), true));
        bytes = new Uint8Array(view.buffer);
      }
    } else {
      bytes = samples instanceof Uint8Array ? samples : new Uint8Array(samples.buffer ?? samples, samples.byteOffset ?? 0, samples.byteLength);
    }
    if (socket.bufferedAmount > this._bound) {
      this.stats.dropped++;
      return false;
    }
    socket.send(bytes);
    this.stats.writes++;
    this.stats.bytes += bytes.byteLength;
    return true;
  }

  /** Stops: the socket closed after it sent what it holds, then EndService (`DELETE`). */
  async stop() {
    const socket = this._socket;
    this._socket = null;
    if (socket) await drainAndClose(socket);
    this.state = "stopped";
    try {
      await this.app.gateway.request("DELETE", `/v1/apps/${encodeURIComponent(this.app.id)}/audio-stream`);
    } catch (error) {
      if (error?.status !== 404 && error?.status !== 409) throw error;
    }
  }
}
