// Files: upload with a progress bar, the head unit's files with delete, and "use as the graphic".
import { $, report } from "./main.js";

let current = null;

export function init() {
  $("file").onchange = () => upload().catch(report);
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
    const actions = row.insertCell();
    const remove = Object.assign(document.createElement("button"), { type: "button", textContent: "Delete", onclick: () => app.files.remove(name).then(list, report) });
    const graphic = Object.assign(document.createElement("button"), {
      type: "button", textContent: "Show as graphic",
      onclick: () => app.rpc.Show({ graphic: { value: name, imageType: "DYNAMIC" } }).catch(report),
    });
    actions.append(graphic, " ", remove);
    return row;
  }));
}
