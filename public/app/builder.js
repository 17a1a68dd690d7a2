// The RPC builder: every request function of /v1/spec, a form built from the spec (mandatory
// marks, enums as selects, bounds, nested structs, arrays as JSON) where each parameter is sent
// with data, sent empty or omitted (as SDL's RPC Builder has it), a raw-JSON mode, a batch, and
// an audio pass-thru recorder that plays what the car's microphone heard.
import { $, element, failNear } from "./dom.js";

let context = null;
const types = new Map(); // type name → /v1/spec/types answer (or null for a primitive)
const batch = [];
const PRIMITIVES = new Set(["String", "Integer", "Float", "Boolean"]);

export function init(ctx) {
  context = ctx;
  $("functions").replaceChildren(...[...ctx.gw.functions].sort().map((name) => Object.assign(document.createElement("option"), { value: name })));
  $("fn").onchange = () => build().catch(failNear($("fn")));
  $("raw").onchange = () => {
    $("raw-json").hidden = !$("raw").checked;
    $("params").hidden = $("raw").checked;
    if ($("raw").checked) $("raw-json").value = JSON.stringify(collect($("params")), null, 2);
  };
  $("send").onclick = () => send().catch(failNear($("send-batch")));
  $("send-batch").onclick = () => sendBatch().catch(failNear($("send-batch")));
  $("record").onclick = () => recordAudio().catch(failNear($("record-stop")));
  $("record-stop").onclick = () => context.app?.rpc.EndAudioPassThru().catch(failNear($("record-stop")));
  build().catch(failNear($("fn")));
}

/** Records (PerformAudioPassThru), counts the chunks as they come, then plays the WAV. */
async function recordAudio() {
  const app = context.app;
  if (!app) throw new Error("register or pick an app first");
  const status = $("record-status");
  let chunks = 0;
  let bytes = 0;
  $("record").disabled = true;
  $("record-stop").disabled = false;
  status.textContent = "recording…";
  try {
    const recording = app.audio.record({
      seconds: Number($("record-seconds").value),
      samplingRate: $("record-rate").value,
      bitsPerSample: $("record-bits").value,
      audioPassThruDisplayText1: "Recording from the browser",
      onChunk: (chunk) => {
        chunks += 1;
        bytes += chunk.bytes.length;
        status.textContent = `recording… ${chunks} chunks, ${bytes} bytes`;
      },
    });
    const { blob, recording: info } = await recording;
    const player = $("recording");
    if (player.src) URL.revokeObjectURL(player.src);
    player.src = URL.createObjectURL(blob);
    player.hidden = false;
    status.textContent = `${info?.chunks ?? chunks} chunks, ${info?.bytes ?? bytes} bytes (${(info?.durationMs ?? 0) / 1000} s), ${blob.size} bytes of WAV`;
    respond(info, "recorded", "on");
    await player.play().catch(() => {});  // a browser may want another click to play
  } catch (error) {
    status.textContent = "";
    respond(error.problem ?? String(error), error.problem?.resultCode ?? error.status ?? "error", "alarm");
  } finally {
    $("record").disabled = false;
    $("record-stop").disabled = true;
  }
}

async function type(name) {
  if (PRIMITIVES.has(name)) return null;
  if (!types.has(name)) types.set(name, await context.gw.spec.type(name));
  return types.get(name);
}

/**
 * Opens the builder on `functionName` with `values` filled in (sent with data): a path such as
 * `graphic.value` names a member of a nested struct.
 */
export async function prefill(functionName, values) {
  $("fn").value = functionName;
  $("raw").checked = false;
  $("raw").onchange();
  await build();
  for (const [path, value] of Object.entries(values)) {
    let container = $("params");
    let row = null;
    for (const name of path.split(".")) {
      row = container.querySelector(`:scope > .param[data-name="${name}"]`);
      if (!row) return;
      row.querySelector(":scope > select.mode").value = "send";
      container = row.querySelector(":scope > .value");
    }
    row.querySelector(":scope > .value").value = value;
  }
  document.getElementById("tab-builder").click();
}

/** The form for the chosen function. */
async function build() {
  const name = $("fn").value.trim();
  if (!context.gw.functions.has(name)) return;
  const spec = await context.gw.spec.function(name);
  $("params").replaceChildren(...(await Promise.all(spec.parameters.map((p) => field(p, 0)))));
  $("raw-json").value = JSON.stringify(spec.template ?? {}, null, 2);
}


/** One parameter: its name, the send/empty/omit choice, and its input. */
async function field(parameter, depth) {
  const row = element("div", { className: "param" });
  row.dataset.name = parameter.name;
  const label = element("label", { className: parameter.mandatory ? "mandatory" : "", textContent: parameter.name, title: describe(parameter) });
  const mode = element("select", { "aria-label": `${parameter.name}: send, send empty or omit` },
    ...["send", "empty", "omit"].map((value) => element("option", { value, textContent: { send: "send with data", empty: "send empty", omit: "omit" }[value] })));
  mode.className = "mode";
  mode.value = parameter.mandatory ? "send" : "omit";
  row.append(label, mode);
  const described = await type(parameter.type);
  let input;
  if (parameter.array) {
    input = element("input", { placeholder: `JSON array of ${parameter.type}`, value: "[]" });
    input.dataset.kind = "json";
  } else if (described?.kind === "struct") {
    input = element("fieldset", {}, element("legend", { textContent: parameter.type }));
    input.dataset.kind = "struct";
    if (depth < 3) input.append(...(await Promise.all(described.parameters.map((p) => field(p, depth + 1)))));
  } else if (described?.kind === "enum") {
    input = element("select", {}, ...described.elements.map((value) => element("option", { value, textContent: value })));
    input.dataset.kind = "string";
  } else if (parameter.type === "Boolean") {
    input = element("select", {}, element("option", { value: "true", textContent: "true" }), element("option", { value: "false", textContent: "false" }));
    input.dataset.kind = "boolean";
  } else if (parameter.type === "Integer" || parameter.type === "Float") {
    input = element("input", { type: "number", step: parameter.type === "Float" ? "any" : "1" });
    if (parameter.minValue !== undefined) input.min = parameter.minValue;
    if (parameter.maxValue !== undefined) input.max = parameter.maxValue;
    input.value = parameter.defaultValue ?? parameter.minValue ?? 0;
    input.dataset.kind = "number";
  } else {
    input = element("input", { type: "text", value: parameter.defaultValue ?? "" });
    if (parameter.maxLength) input.maxLength = parameter.maxLength;
    input.dataset.kind = "string";
  }
  input.setAttribute("aria-label", parameter.name);
  input.classList.add("value");
  input.oninput = () => (mode.value = "send");
  row.append(input);
  return row;
}

function describe(p) {
  const bounds = [p.minValue !== undefined && `≥ ${p.minValue}`, p.maxValue !== undefined && `≤ ${p.maxValue}`, p.maxLength && `≤ ${p.maxLength} characters`,
    p.array && `array of ${p.minSize ?? 0}…${p.maxSize ?? "∞"}`].filter(Boolean).join(", ");
  return `${p.type}${p.mandatory ? ", mandatory" : ""}${bounds ? `, ${bounds}` : ""}`;
}

/** The parameters the form says to send. */
function collect(container) {
  const result = {};
  for (const row of container.querySelectorAll(":scope > .param")) {
    const mode = row.querySelector(":scope > select.mode").value;
    const input = row.querySelector(":scope > .value");
    if (mode === "omit") continue;
    const kind = input.dataset.kind;
    if (mode === "empty") {
      result[row.dataset.name] = { json: [], struct: {}, number: 0, boolean: false, string: "" }[kind];
      continue;
    }
    if (kind === "struct") result[row.dataset.name] = collect(input);
    else if (kind === "json") result[row.dataset.name] = JSON.parse(input.value || "[]");
    else if (kind === "number") result[row.dataset.name] = Number(input.value);
    else if (kind === "boolean") result[row.dataset.name] = input.value === "true";
    else result[row.dataset.name] = input.value;
  }
  return result;
}

async function send() {
  const app = context.app;
  if (!app) throw new Error("register or pick an app first");
  const name = $("fn").value.trim();
  if (!context.gw.functions.has(name)) throw new Error(`${name || "(no name)"} is not a request function of RPC spec ${context.gw.specVersion}`);
  const params = $("raw").checked ? JSON.parse($("raw-json").value || "{}") : collect($("params"));
  if ($("batch").checked) {
    batch.push({ function: name, params });
    $("batch-count").textContent = String(batch.length);
    respond(batch, `${batch.length} in the batch`, "");
    return;
  }
  respond(`sending ${name}…`, "…", "");
  try {
    const response = await app.rpc[name](params);
    respond(response, response?.resultCode ?? "answered", response?.success === false ? "alarm" : "on");
  } catch (error) {
    // The head unit's or the gateway's answer to the request shows as the response; a refused
    // credential (401, 403) is no answer of the request's: it shows next to Send.
    if (!error.problem || [401, 403].includes(error.status)) {
      respond("not sent", `${error.status ?? "error"}`, "alarm");
      throw error;
    }
    respond(error.problem, error.problem.resultCode ?? `${error.status} ${error.code}`, "alarm");
  }
}

async function sendBatch() {
  if (!context.app) throw new Error("register or pick an app first");
  if (!batch.length) throw new Error("the batch is empty: tick “add to batch” and Send to add requests");
  const answer = await context.app.batch(batch.splice(0), { mode: "sequential", stopOnError: false });
  $("batch-count").textContent = "0";
  const failed = answer.results.filter((result) => result.problem).length;
  respond(answer, failed ? `${failed} of ${answer.results.length} failed` : `${answer.results.length} answered`, failed ? "alarm" : "on");
}

/** Shows an answer right by the Send button: a status badge and the JSON. */
function respond(body, status, tone) {
  const badge = $("response-status");
  badge.hidden = false;
  badge.className = `badge ${tone}`;
  badge.textContent = status;
  $("response").classList.remove("muted");
  $("response").textContent = typeof body === "string" ? body : JSON.stringify(body, null, 2);
}
