// SPDX-License-Identifier: MIT
// Small DOM and formatting helpers shared by the playground's panels.

export const $ = (id) => document.getElementById(id);

/** Creates an element: el('p', {class: 'x', dataset: {a: '1'}}, 'text', child…). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** SVG element with attributes. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const numberFormat = new Intl.NumberFormat('en-US');
export const fmt = (n) => (typeof n === 'number' ? numberFormat.format(n) : '—');
export const pct = (bp) => (typeof bp === 'number' ? `${(bp / 100).toFixed(2)} %` : '—');

export const pretty = (value) => JSON.stringify(value, null, 2);

/** RFC 7386 merge patch (arrays replace whole, null deletes) — mirrors what `update` applied. */
export function mergePatch(target, patch) {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const out = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** Length of the common prefix of two strings (UTF-16 units). */
export function commonPrefix(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

/** Parses JSONL text into objects, skipping blank and invalid lines. */
export function parseJsonl(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try { out.push(JSON.parse(line)); } catch { /* a torn line: the engine reports it */ }
  }
  return out;
}

/** A definition list from [term, value] pairs (values may be nodes). */
export function facts(pairs, className = 'facts') {
  return el('dl', { class: className }, pairs.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]));
}
