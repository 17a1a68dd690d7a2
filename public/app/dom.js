// Building elements: properties as properties, names with a dash (aria-label) as attributes,
// `dataset` into data-* attributes.
export function element(tag, { dataset, ...properties } = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(properties)) key.includes("-") ? node.setAttribute(key, value) : (node[key] = value);
  Object.assign(node.dataset, dataset ?? {});
  node.append(...children);
  return node;
}
