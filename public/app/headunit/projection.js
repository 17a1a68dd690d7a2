// The app's video on the head unit's screen, as a navigation or projection app's screen is: the
// H.264 stream the head unit receives (the SDL video service, docs/protocol.md) read live from its
// feed WebSocket (`/v1/simulator/apps/{appID}/video`, or `/v1/hmi/apps/{appID}/video` with Core),
// split into access units, decoded by WebCodecs' VideoDecoder and drawn into a canvas; clicks and
// drags on it are the driver's touches (OnTouchEvent BEGIN, MOVE, END) in the video's pixels.
import { element } from "../dom.js";

/** The NAL unit type of the NAL starting at `bytes[i]` (the byte after its start code). */
const nalType = (bytes, i) => bytes[i] & 0x1f;
const VCL = new Set([1, 5]);
const hex = (value) => value.toString(16).padStart(2, "0").toUpperCase();

/**
 * Annex B bytes in pieces of any size → access units (one picture each, with the SPS and PPS in
 * front of a keyframe). A unit is complete when the next one starts: at once when an access unit
 * delimiter follows it, else a picture late; bytes before the first start code are skipped.
 */
export class AccessUnits {
  constructor() {
    this._pending = new Uint8Array(0);
    this._nals = [];
    this._hasPicture = false;
  }

  /** Adds bytes; returns the access units they completed: `{bytes, key, sps}`. */
  push(chunk) {
    const joined = new Uint8Array(this._pending.length + chunk.length);
    joined.set(this._pending);
    joined.set(chunk, this._pending.length);
    const units = [];
    const starts = [];
    for (let i = 0; i + 2 < joined.length; i++) {
      if (joined[i] === 0 && joined[i + 1] === 0 && joined[i + 2] === 1) {
        starts.push(i + 3);
        i += 2;
      }
    }
    if (!starts.length) {
      this._pending = joined.slice(Math.max(0, joined.length - 3));
      return units;
    }
    // Each NAL runs from its start to the next start code (its zero bytes trimmed); the last one
    // may go on in the next piece: it stays pending.
    for (let n = 0; n + 1 < starts.length; n++) {
      let end = starts[n + 1] - 3;
      while (end > starts[n] && joined[end - 1] === 0) end--;
      const unit = this._add(joined.subarray(starts[n], end));
      if (unit) units.push(unit);
    }
    this._pending = joined.slice(starts[starts.length - 1] - 3);
    // An access unit delimiter is always two bytes: one at the end is complete, and ends the
    // picture before it now (sdl-gateway.js sends one after each picture) instead of a picture late.
    if (this._pending.length === 5 && nalType(this._pending, 3) === 9) {
      const unit = this._add(this._pending.subarray(3));
      if (unit) units.push(unit);
      this._pending = new Uint8Array(0);
    }
    return units;
  }

  _add(nal) {
    if (!nal.length) return null;
    const type = nalType(nal, 0);
    // A new picture starts with an access unit delimiter, SEI, SPS or PPS after a picture, or a
    // slice whose first_mb_in_slice is 0 (its ue(v) code is the single bit 1).
    const starts = this._hasPicture && ([6, 7, 8, 9].includes(type) || (VCL.has(type) && (nal[1] & 0x80) !== 0));
    const unit = starts ? this._flush() : null;
    this._nals.push(nal);
    if (VCL.has(type)) this._hasPicture = true;
    return unit;
  }

  _flush() {
    const nals = this._nals;
    this._nals = [];
    this._hasPicture = false;
    const bytes = new Uint8Array(nals.reduce((sum, nal) => sum + nal.length + 4, 0));
    let offset = 0;
    for (const nal of nals) {
      bytes.set([0, 0, 0, 1], offset);
      bytes.set(nal, offset + 4);
      offset += nal.length + 4;
    }
    const sps = nals.find((nal) => nalType(nal, 0) === 7);
    return { bytes, key: nals.some((nal) => nalType(nal, 0) === 5), sps: sps ? `avc1.${hex(sps[1])}${hex(sps[2])}${hex(sps[3])}` : null };
  }

  /** Forgets what is pending (after a gap in the stream). */
  reset() {
    this._pending = new Uint8Array(0);
    this._nals = [];
    this._hasPicture = false;
  }
}

/**
 * One app's live video: a canvas (`.hu-video`, `data-frames-decoded`, `data-gaps`) fed by the
 * head unit's feed WebSocket while it is open. `touch(event)` sends a driver's touch, or is null.
 */
export class VideoPlayer {
  constructor({ url, protocols, touch }) {
    this.frames = 0;
    this.canvas = element("canvas", { className: "hu-video", width: 800, height: 480, dataset: { framesDecoded: "0", gaps: "0" }, "aria-label": "the app's video" });
    this.closed = false;
    this._units = new AccessUnits();
    this._decoder = null;
    this._codec = null;
    this._waitForKey = true;
    this._timestamp = 0;
    this._socket = new WebSocket(url, protocols);
    this._socket.binaryType = "arraybuffer";
    this._socket.onmessage = (message) => this._receive(message.data);
    this._socket.onclose = () => (this.closed = true);
    if (touch) this._touches(touch);
  }

  _receive(data) {
    if (typeof data === "string") {
      // `{"type": "gap", "bytes": N}`: the feed dropped bytes for this slow reader; decode again from a keyframe.
      this._units.reset();
      this._waitForKey = true;
      this.canvas.dataset.gaps = String(Number(this.canvas.dataset.gaps) + 1);
      return;
    }
    for (const unit of this._units.push(new Uint8Array(data))) this._decode(unit);
  }

  _decode(unit) {
    if (this._waitForKey && !(unit.key && unit.sps)) return;
    if (unit.sps && (unit.sps !== this._codec || !this._decoder || this._decoder.state === "closed")) this._configure(unit.sps);
    if (!this._decoder || this._decoder.state !== "configured") return;
    // A decoder far behind (a slow machine): skip to the next keyframe rather than queue more.
    if (!unit.key && this._decoder.decodeQueueSize > 30) {
      this._waitForKey = true;
      return;
    }
    this._waitForKey = false;
    this._timestamp += 33333;
    try {
      this._decoder.decode(new EncodedVideoChunk({ type: unit.key ? "key" : "delta", timestamp: this._timestamp, data: unit.bytes }));
    } catch (error) {
      console.warn("the preview's decoder refused a picture", error);
      this._waitForKey = true;
    }
  }

  _configure(codec) {
    if (typeof VideoDecoder === "undefined") return;
    if (this._decoder && this._decoder.state !== "closed") this._decoder.close();
    this._codec = codec;
    this._decoder = new VideoDecoder({
      output: (frame) => {
        if (this.canvas.width !== frame.displayWidth || this.canvas.height !== frame.displayHeight) {
          this.canvas.width = frame.displayWidth;
          this.canvas.height = frame.displayHeight;
        }
        this.canvas.getContext("2d").drawImage(frame, 0, 0);
        frame.close();
        this.canvas.dataset.framesDecoded = String(++this.frames);
      },
      error: (error) => {
        console.warn("the preview's decoder stopped", error);
        this._waitForKey = true;
      },
    });
    this._decoder.configure({ codec, optimizeForLatency: true });
  }

  /** Pointer down, drags and up on the canvas as BEGIN, MOVE, END at the video's pixel: one request at a time, the latest MOVE kept. */
  _touches(send) {
    const canvas = this.canvas;
    let down = false;
    let inFlight = Promise.resolve();
    let queuedMove = null;
    // The picture is letterboxed in the element (object-fit: contain): its own box, then its pixels.
    const at = (event) => {
      const box = canvas.getBoundingClientRect();
      const scale = Math.min(box.width / canvas.width, box.height / canvas.height) || 1;
      const left = box.left + (box.width - canvas.width * scale) / 2;
      const top = box.top + (box.height - canvas.height * scale) / 2;
      return {
        x: Math.round(Math.min(Math.max(0, (event.clientX - left) / scale), canvas.width - 1)),
        y: Math.round(Math.min(Math.max(0, (event.clientY - top) / scale), canvas.height - 1)),
      };
    };
    const post = (type, point) => (inFlight = inFlight.then(() => send({ type, id: 0, ...point })).catch((error) => console.warn(error)));
    canvas.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      down = true;
      canvas.setPointerCapture?.(event.pointerId);
      post("BEGIN", at(event));
    });
    canvas.addEventListener("pointermove", (event) => {
      if (!down) return;
      const first = queuedMove === null;
      queuedMove = at(event);
      if (first) {
        inFlight = inFlight.then(() => {
          const point = queuedMove;
          queuedMove = null;
          return point ? send({ type: "MOVE", id: 0, ...point }) : null;
        }).catch((error) => console.warn(error));
      }
    });
    const end = (type) => (event) => {
      if (!down) return;
      down = false;
      post(type, at(event));
    };
    canvas.addEventListener("pointerup", end("END"));
    canvas.addEventListener("pointercancel", end("CANCEL"));
  }

  close() {
    this.closed = true;
    this._socket.close(1000);
    if (this._decoder && this._decoder.state !== "closed") this._decoder.close();
  }
}
