// The browser client's tests (public/sdl-gateway.js), run inside a page of the gateway by
// .ci/browser-client.py: `arguments[0]` is the control token, the last argument selenium's
// callback, which gets [[name, passed, detail], …]. Every wait is bounded; none is a sleep.
const [token, done] = [arguments[0], arguments[arguments.length - 1]];
const results = [];
const check = (name, passed, detail = "") => (console.log(`${passed ? "ok" : "FAIL"} ${name} ${detail}`), results.push([name, Boolean(passed), String(detail)]));
function until(condition, what, limit = 10000) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    (function poll() {
      Promise.resolve().then(condition).then((value) => {
        if (value) return resolve(value);
        if (Date.now() - started > limit) return reject(new Error(`timed out waiting for ${what}`));
        requestAnimationFrame(poll);
      }, reject);
    })();
  });
}
const raw = (method, path, body) =>
  fetch(path, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body && JSON.stringify(body) });

(async () => {
  const m = await import(`${location.origin}/sdl-gateway.js`);
  check("exports connect, Gateway, App, GatewayProblem, VideoStream, AudioStream", ["connect", "Gateway", "App", "GatewayProblem", "VideoStream", "AudioStream"].every((name) => typeof m[name] === "function"));

  let asked = 0;
  const gw = await m.connect({ askForToken: () => (asked++, token) });
  check("connect asks for a token once on 401 and keeps it", asked === 1 && gw.token === token, `asked ${asked}`);
  check("the spec's request functions are known", gw.functions.has("Show") && !gw.functions.has("OnHMIStatus"), gw.specVersion);

  const app = await gw.apps.register({ id: "client", appName: "Client", appID: "client-app" });
  check("apps.register answers an App", app instanceof m.App && app.id === "client");
  check("an app has app.video and app.audioStream, stopped", app.video instanceof m.VideoStream && app.audioStream instanceof m.AudioStream && app.video.state === "stopped");
  try {
    app.audioStream.write(new Float32Array(4));
    check("app.audioStream.write before start throws", false);
  } catch (error) {
    check("app.audioStream.write before start throws", /start\(\) it first/.test(error.message), error.message);
  }
  const events = [];
  app.on("*", (data, event) => events.push(event));
  await until(() => events.some((e) => e.type === "hmiStatus" && e.data.hmiLevel === "FULL"), "hmiStatus FULL");
  check("app.on delivers events over the WebSocket", true);

  const shown = await app.rpc.Show({ mainField1: "From the client" });
  const screen = await gw.simulator.screen("client");
  check("app.rpc.Show reaches the head unit", shown.resultCode === "SUCCESS" && screen.show.mainField1 === "From the client", JSON.stringify(shown));
  try {
    app.rpc.NoSuchFunction;
    check("an unknown function throws", false);
  } catch (error) {
    check("an unknown function throws", error instanceof TypeError, error.message);
  }
  try {
    await app.rpc.Show({ mainField1: 5 });
    check("a problem is thrown as a GatewayProblem", false);
  } catch (error) {
    check("a problem is thrown as a GatewayProblem", error instanceof m.GatewayProblem && error.status === 422 && error.code === "invalid-parameters" && error.problem.issues.length > 0, `${error.status} ${error.code}`);
  }
  const overSocket = await app.send("Show", { mainField2: "Over the socket" });
  check("app.send answers over the WebSocket", overSocket.resultCode === "SUCCESS", JSON.stringify(overSocket));

  const declared = await app.screen.set({ textFields: ["Declared"], softButtons: [{ id: "ok", states: [{ name: "ok", text: "OK" }] }] });
  check("app.screen.set lists what it sent", declared.sent.map((s) => s.function).join() === "Show", JSON.stringify(declared.sent));
  const menu = await app.menu.set([{ id: "a", title: "A" }]);
  check("app.menu.set", menu.sent.length === 1 && menu.menu[0].id === "a");
  const presented = app.interactions.present({ title: "Pick", choices: [{ id: "x", text: "X" }, { id: "y", text: "Y" }] });
  await until(async () => (await gw.simulator.screen("client")).overlay, "the interaction on screen");
  const sets = (await gw.simulator.apps()).apps ?? [];
  const answer = await gw.simulator.answer("client", { result: "ABORTED" });
  const answered = await presented;
  check("app.interactions.present answers (a cancel is an answer)", answered.result === "ABORTED" && answered.choice === null, JSON.stringify(answered) + JSON.stringify(answer) + sets.length);

  const bytes = new Uint8Array(3000).fill(7);
  let progress = 0;
  await app.files.upload("client.bin", bytes, { onProgress: (sent) => (progress = sent) });
  const files = await app.files.list();
  check("files.upload reports progress; the file is listed", progress === 3000 && files.files.includes("client.bin"), `${progress} ${files.files}`);
  const onHeadUnit = await gw.simulator.files("client");
  check("simulator.files lists the file with its size", onHeadUnit.some((f) => f.name === "client.bin" && f.size === 3000 && f.complete), JSON.stringify(onHeadUnit));
  const stored = await gw.simulator.file("client", "client.bin");
  const storedBytes = new Uint8Array(await stored.arrayBuffer());
  check("simulator.file answers the bytes as a Blob of the FileType's type", stored instanceof Blob && stored.type === "application/octet-stream" && storedBytes.length === 3000 && storedBytes.every((b) => b === 7), `${stored.type} ${storedBytes.length}`);
  try {
    await gw.simulator.file("client", "none.bin");
    check("simulator.file of an unknown file throws file-not-found", false);
  } catch (error) {
    check("simulator.file of an unknown file throws file-not-found", error instanceof m.GatewayProblem && error.status === 404 && error.code === "file-not-found", `${error.status} ${error.code}`);
  }
  await app.files.remove("client.bin");
  await gw.images.put("dot.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  check("images.put and list", (await gw.images.list()).images.some((i) => i.name === "dot.png"));
  await gw.images.remove("dot.png");

  // Two seconds of the simulated microphone (16 kHz, 16-bit): 20 chunks of 3,200 bytes as they
  // come, then a WAV Blob of 44 + 64,000 bytes that the browser's own decoder reads as 2 s.
  const streamed = [];
  const recording = app.audio.record({ seconds: 2 });
  const reader = recording.chunks.getReader();
  const reading = (async () => {
    for (let next = await reader.read(); !next.done; next = await reader.read()) streamed.push(next.value);
  })();
  const recorded = await recording;
  await reading;
  const streamedBytes = streamed.reduce((sum, c) => sum + c.bytes.length, 0);
  check("audio.record streams the chunks in order", streamed.length === 20 && streamed.every((c, i) => c.chunk === i + 1) && streamedBytes === 64000,
    `${streamed.length} chunks, ${streamedBytes} bytes`);
  check("audio.record answers a WAV Blob of the expected size", recorded.blob.size === 64044 && recorded.blob.type === "audio/wav" && recorded.recording.bytes === 64000,
    `${recorded.blob.size} ${recorded.blob.type} ${JSON.stringify(recorded.recording)}`);
  const decoded = await new OfflineAudioContext(1, 1, 16000).decodeAudioData(await recorded.blob.arrayBuffer());
  const wavPCM = new Uint8Array(await recorded.blob.arrayBuffer()).slice(44);
  const sameBytes = streamed.every((c, i) => c.bytes.every((b, j) => b === wavPCM[i * 3200 + j]));
  check("the Blob plays: the browser decodes 2 s of audio, the streamed chunks' bytes", Math.abs(decoded.duration - 2) < 0.01 && sameBytes,
    `${decoded.duration} s, same bytes ${sameBytes}`);

  // `on(type, listener, {history: N})`: a client that comes after a script did its work opens
  // with the app's last N events from the gateway's event ring (`since`); without it, with none.
  await raw("POST", "/v1/apps/client/rpc/Show", { mainField1: "Before the page" });
  const lastBefore = (await app.get()).lastEventSeq;
  const [later, plain] = [await m.connect({ token }), await m.connect({ token })];
  const replayed = [], live = [];
  const opens = [];
  later.app("client").on("socket", (state) => opens.push(state));
  later.app("client").on("*", (data, event) => replayed.push(event), { history: 10 });
  plain.app("client").on("*", (data, event) => live.push(event));
  const shownBefore = (e) => e.type === "rpc" && e.data.function === "Show" && e.data.params?.mainField1 === "Before the page";
  await until(() => replayed.some(shownBefore), "the Show before the client in its history");
  await until(() => opens.length && plain.app("client")._socket?.readyState === WebSocket.OPEN, "both sockets open");
  await raw("POST", "/v1/apps/client/rpc/Show", { mainField1: "After the page" });
  await until(() => live.some((e) => e.type === "rpc" && e.data.params?.mainField1 === "After the page"), "the later Show without history");
  await until(() => replayed.some((e) => e.type === "rpc" && e.data.params?.mainField1 === "After the page"), "the later Show after the history");
  check("on(…, {history}) opens with the app's last events (since), then follows live; without it only new events come",
    opens[0].since >= lastBefore - 10 && opens[0].since < lastBefore && replayed[0].seq === opens[0].since + 1 && live.every((e) => e.seq > lastBefore),
    `since ${opens[0].since}, first replayed ${replayed[0].seq}, last before ${lastBefore}, first live ${live[0]?.seq}`);
  later.close();
  plain.close();

  // The gateway closes the socket (the app is deleted); the app is created again under its id:
  // the client reconnects by itself with since = the last seq it saw, and new events arrive.
  const states = [];
  app.on("socket", (state) => states.push(state));
  const before = app.lastSeq;
  await raw("DELETE", "/v1/apps/client");
  await until(() => states.some((s) => s.state === "closed"), "the socket closed by the gateway");
  await raw("POST", "/v1/apps", { id: "client", appName: "Client", appID: "client-app" });
  await until(() => states.some((s) => s.state === "open"), "the socket open again");
  const [closed, reopened] = [states.find((s) => s.state === "closed"), states.find((s) => s.state === "open")];
  await until(() => events.some((e) => e.seq > closed.lastSeq && e.type === "connection" && e.data.state === "registered"), "events of the new app");
  check("reconnects with since after the gateway closed the socket", reopened.since === closed.lastSeq && closed.lastSeq >= before, `since ${reopened.since}, last seq at the close ${closed.lastSeq}, before the delete ${before}`);
  // What the page's panels use, as documented methods of the client.
  const showSpec = await gw.spec.function("Show");
  const image = await gw.spec.type("Image");
  check("gw.spec.function and gw.spec.type read the RPC spec", showSpec.parameters.some((p) => p.name === "mainField1") && image.kind === "struct", image.kind);
  const batch = await app.batch([{ function: "Show", params: { mainField1: "Batch 1" } }, { function: "Show", params: { mainField1: "Batch 2" } }], { mode: "sequential" });
  check("app.batch sends several requests in one call", batch.results.length === 2 && batch.results.every((r) => r.status === 200), JSON.stringify(batch.results.map((r) => r.status)));
  const paused = await gw.simulator.setFeed({ playing: false });
  const feed = await gw.simulator.feed();
  await gw.simulator.setFeed({ playing: true });
  check("gw.simulator.feed and setFeed read and pause the feed", paused.playing === false && feed.playing === false && typeof feed.elapsedSeconds === "number", JSON.stringify(feed));
  await gw.simulator.addFault({ function: "Alert", resultCode: "REJECTED" });
  const faults = await gw.simulator.faults();
  await gw.simulator.clearFaults();
  check("gw.simulator.addFault, faults and clearFaults", faults.some((f) => f.function === "Alert" && f.resultCode === "REJECTED") && (await gw.simulator.faults()).length === 0, JSON.stringify(faults));
  await gw.simulator.vehicleData({ speed: 33 });
  const held = await gw.simulator.currentVehicleData();
  await gw.simulator.vehicleData({ speed: null });
  check("gw.simulator.currentVehicleData reads the values apps see", held.speed === 33 && typeof held.rpm === "number", `speed ${held.speed}`);
  check("gw.scope is control once a control request succeeded", gw.scope === "control", gw.scope);
  const answers = ["not-the-token", token];
  const again = await m.connect({ askForToken: () => answers.shift() });
  check("a wrong token is asked for again", answers.length === 0 && again.token === token, `${answers.length} answers left`);
  // app.audioStream against the real routes: a NAVIGATION app (the simulator activates it) streams
  // Float32 samples, which the head unit receives converted to its PCM format, in order.
  const nav = await gw.apps.register({ id: "client-nav", appName: "Client Nav", appID: "client-nav-app", appHMIType: ["NAVIGATION"] });
  await until(async () => (await raw("GET", "/v1/apps/client-nav").then((r) => r.json())).hmiLevel === "FULL", "the navigation app in FULL");
  await nav.audioStream.start();
  const samples = new Float32Array([0, 0.5, -0.5, 1, -1, 2, 0.25, -2]);
  const written = nav.audioStream.write(samples) && nav.audioStream.write(samples);
  await nav.audioStream.stop();
  const bits = nav.audioStream.format.bitsPerSample;
  const one = bits === 8
    ? Array.from(samples, (v) => Math.round((Math.max(-1, Math.min(1, v)) + 1) * 127.5))
    : Array.from(samples).flatMap((v) => { const x = Math.round(Math.max(-1, Math.min(1, v)) * 32767) & 0xffff; return [x & 0xff, x >> 8]; });
  const expected = one.concat(one);
  const received = await until(async () => {
    const answer = await raw("GET", "/v1/simulator/apps/client-nav/audio.pcm");
    const bytes = answer.ok ? new Uint8Array(await answer.arrayBuffer()) : new Uint8Array(0);
    return bytes.length >= expected.length ? Array.from(bytes) : null;
  }, "the head unit's audio.pcm");
  check("app.audioStream streams PCM in the head unit's format; the head unit gets those bytes in order, and stop() ends the service",
    written && JSON.stringify(received) === JSON.stringify(expected) && (await raw("GET", "/v1/apps/client-nav/audio-stream").then((r) => r.json())).state === "stopped",
    `${bits}-bit, ${received.length} bytes`);
  await gw.apps.remove("client-nav");

  // The preview's access-unit splitter: a picture is given at once when an access unit delimiter
  // (which sdl-gateway.js sends after each picture) follows it, else when the next picture starts.
  const { AccessUnits } = await import(`${location.origin}/app/headunit/projection.js`);
  const nal = (...bytes) => [0, 0, 0, 1, ...bytes];
  const keyframe = [...nal(0x67, 0x42, 0xc0, 0x1e, 0xda), ...nal(0x68, 0xce, 0x3c, 0x80), ...nal(0x65, 0x88, 0x84, 0x21)];
  const late = new AccessUnits().push(new Uint8Array(keyframe));
  const delimited = new AccessUnits();
  const atOnce = delimited.push(new Uint8Array([...keyframe, ...nal(0x09, 0xf0)]));
  const next = delimited.push(new Uint8Array([...nal(0x41, 0x9a, 0x02), ...nal(0x09, 0xf0)]));
  check("the preview splits a picture at once when an access unit delimiter follows it, a picture late without",
    late.length === 0 && atOnce.length === 1 && atOnce[0].key && atOnce[0].sps === "avc1.42C01E" && atOnce[0].bytes.length === 25
      && next.length === 1 && !next[0].key && next[0].bytes[4] === 0x09 && next[0].bytes[10] === 0x41,
    JSON.stringify({ late: late.length, atOnce: atOnce.map((u) => [u.key, u.sps, u.bytes.length]), next: next.map((u) => Array.from(u.bytes)) }));

  await gw.apps.remove("client");
  gw.close();
})().then(() => done(results), (error) => done(results.concat([["unexpected error", false, `${error} ${error.stack ?? ""}`]])));
