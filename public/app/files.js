// Files: upload with a progress bar, the head unit's files (with the sizes of those uploaded from
// here) with delete, and "use in the builder" (a Show with the file as its graphic).
import { prefill } from "./builder.js";
import { $, failNear } from "./dom.js";

let current = null;
/** Sizes of the files uploaded from this page (SDL's ListFiles names files but gives no sizes). */
const sizes = new Map();

export function init() {
  $("file").onchange = () => upload().catch(failNear($("upload-progress")));
}

export function select(app) {
  current = app;
  list().catch(() => {});
}

export function event(event) {
  if (event.type === "connection" && event.data.state === "registered") list().catch(() => {});
}

async function upload() {
  const file = $("file").files[0];
  if (!file || !current) return;
  $("upload-progress").value = 0;
  sizes.set(`${current.id}/${file.name}`, file.size);
  await current.files.upload(file.name, file, { persistent: $("persistent").checked, onProgress: (sent, total) => ($("upload-progress").value = total ? sent / total : 1) });
  $("upload-progress").value = 1;
  await list();
}

async function list() {
  if (!current) return;
  const app = current;
  const { files } = await app.files.list();
  $("files").tBodies[0].replaceChildren(...files.map((name) => {
    const row = document.createElement("tr");
    row.insertCell().textContent = name;
    const size = sizes.get(`${app.id}/${name}`);
    row.insertCell().textContent = size === undefined ? "—" : `${size.toLocaleString()} bytes`;
    const actions = row.insertCell();
    const remove = Object.assign(document.createElement("button"), { type: "button", textContent: "Delete" });
    remove.dataset.needs = "control";
    remove.onclick = () => app.files.remove(name).then(list, failNear(remove));
    const graphic = Object.assign(document.createElement("button"), {
      type: "button", textContent: "Use in the builder",
      onclick: () => prefill("Show", { "graphic.value": name, "graphic.imageType": "DYNAMIC" }).catch(failNear(remove)),
    });
    actions.append(graphic, " ", remove);
    return row;
  }));
}
