// SPDX-License-Identifier: MIT
// Request inspector: the exact JSON body of every model_request (the bytes the host POSTs),
// with the prefix shared with the previous request's body greyed, the new bytes highlighted and
// the unchanged tail (tools and options) plain; or the same body per item — the fields, then
// each `input` item and each tool as a collapsible entry, pretty-printed, marked reused (equal
// to the previous request's item at that index) or new (open). Plus the engine's cache_report
// (SPEC §9) and, on a break, the explainer's reason in words.
import { $, commonPrefix, el, facts, fmt, pct, pretty } from './util.js';

let app;
let chosen = null; // index into app.requests; null = follow the latest
let perItem = false; // show the body per item instead of as exact bytes

/** What each explainer reason means for the user (SPEC §9). */
export const REASONS = {
  model_changed: 'The model changed: prompt caches are per model, so nothing could be reused.',
  cache_key_changed: 'The prompt_cache_key changed: a different cache namespace, nothing reused.',
  instructions_changed: 'The instructions changed; they come first in the prompt, so everything after them was sent uncached.',
  tools_changed: 'The tools array changed — at once under tool_policy "apply", at the next compaction under "defer" — and the tools come before every message, so the conversation after them was re-processed. Under "defer" the array stays frozen until a compaction (which rewrites the history anyway) and a <tools> notice is appended instead.',
  history_rewritten_by_compaction: 'A compaction replaced the history, so the prompt after the instructions and tools is new. This break is expected once per compaction.',
  item_edited: 'An earlier item changed in place. agentctx never edits history itself, so this points at the host or a resume.',
};

function option(request, index) {
  const r = request.report;
  const tag = r === null ? '' : r.break ? ` — break: ${r.break.reason}` : ` — reuse ${pct(r.reuse_bp)}`;
  const attempt = request.attempt > 1 ? ` (attempt ${request.attempt})` : '';
  return el('option', { value: String(index) }, `${request.id}${attempt} · ${request.purpose}${tag}`);
}

function renderList() {
  const select = $('request-select');
  select.replaceChildren(...app.requests.map(option));
  const index = chosen ?? app.requests.length - 1;
  if (index >= 0) select.value = String(index);
}

function renderReport(request, index) {
  const box = $('request-report');
  const r = request.report;
  box.dataset.request = request.id;
  box.dataset.break = r?.break ? r.break.reason : 'none';
  if (r === null) {
    box.replaceChildren(el('p', { class: 'note' }, 'No cache report for this request.'));
    return;
  }
  const usage = request.usage;
  const rows = [
    ['endpoint', `${request.endpoint} (${request.purpose}, attempt ${request.attempt})`],
    ['body', `${fmt(request.bytes ?? request.body.length)} bytes`],
    ['prompt', `${fmt(r.prompt_bytes)} bytes ≈ ${fmt(r.prompt_tokens)} tokens`],
    ['shared prefix', `${fmt(r.shared_prefix_bytes)} bytes — reuse ${pct(r.reuse_bp)} (best possible ${pct(r.max_reuse_bp)})`],
    ['cached tokens', `predicted ${fmt(r.predicted_cached_tokens)} · ideal ${fmt(r.ideal_cached_tokens)}${usage ? ` · reported ${fmt(usage.cached_tokens)} of ${fmt(usage.input_tokens)}` : ''}`],
  ];
  const parts = [facts(rows)];
  if (r.break) {
    const b = r.break;
    const where = b.item_index !== undefined ? `item ${b.item_index} (${b.section})` : b.section;
    parts.push(el('div', { class: 'break', role: 'status' },
      el('strong', {}, `Cache break: ${b.reason}`),
      el('p', {}, REASONS[b.reason] ?? ''),
      el('p', {}, `First difference at prompt byte ${fmt(b.byte_offset)} in ${where}; ${fmt(b.lost_tokens)} cacheable tokens lost.`)));
  } else if (index > 0) {
    parts.push(el('p', { class: 'ok', role: 'status' }, 'Prefix intact: the previous prompt is reused byte for byte; only new bytes were appended.'));
  }
  box.replaceChildren(...parts);
}

function renderBody(request, index) {
  const pre = $('request-body');
  const body = request.body;
  const previous = index > 0 ? app.requests[index - 1].body : '';
  const shared = commonPrefix(previous, body);
  let tail = 0;
  const limit = Math.min(previous.length, body.length) - shared;
  while (tail < limit && previous.charCodeAt(previous.length - 1 - tail) === body.charCodeAt(body.length - 1 - tail)) tail += 1;
  pre.dataset.reused = String(shared);
  pre.dataset.fresh = String(body.length - shared - tail);
  pre.replaceChildren(
    el('span', { class: 'reused' }, body.slice(0, shared)),
    el('mark', { class: 'fresh' }, body.slice(shared, body.length - tail)),
    el('span', { class: 'tail' }, body.slice(body.length - tail)),
  );
}

function parseBody(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A one-line label for an input item. */
function itemLabel(item) {
  const parts = [item.type ?? 'item'];
  if (item.role) parts.push(item.role);
  if (item.name) parts.push(item.name);
  if (item.call_id && !item.name) parts.push(item.call_id);
  const text = item.type === 'message'
    ? (item.content ?? []).map((c) => c.text ?? `[${c.type}]`).join(' ')
    : typeof item.output === 'string' ? item.output : item.arguments ?? '';
  const preview = String(text).replace(/\s+/g, ' ').slice(0, 80);
  return `${parts.join(' · ')}${preview ? ` — ${preview}` : ''}`;
}

function entry(index, label, value, reused) {
  const json = JSON.stringify(value);
  return el('details', { class: `item ${reused ? 'reused' : 'fresh'}`, open: !reused || undefined, dataset: { index: String(index) } },
    el('summary', {}, el('span', { class: 'item-index' }, `#${index}`), ' ', label, ' ',
      el('span', { class: 'item-size' }, `${fmt(new TextEncoder().encode(json).length)} B · ${reused ? 'reused' : 'new'}`)),
    el('pre', {}, pretty(value)));
}

function renderItems(request, index) {
  const box = $('request-items');
  const body = parseBody(request.body);
  if (body === null || typeof body !== 'object') {
    box.replaceChildren(el('p', { class: 'note' }, 'This body is not a JSON object; see the exact bytes.'));
    return;
  }
  const previous = index > 0 ? parseBody(app.requests[index - 1].body) : null;
  const prevInput = Array.isArray(previous?.input) ? previous.input : [];
  const input = Array.isArray(body.input) ? body.input : [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const prevTools = JSON.stringify(previous?.tools ?? null);
  const fields = Object.entries(body).filter(([k]) => k !== 'input' && k !== 'tools' && k !== 'instructions');
  const parts = [facts(fields.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))];
  if (typeof body.instructions === 'string') {
    const same = previous?.instructions === body.instructions;
    parts.push(el('details', { class: `item ${same ? 'reused' : 'fresh'}` },
      el('summary', {}, 'instructions ', el('span', { class: 'item-size' }, `${fmt(body.instructions.length)} characters · ${same ? 'reused' : 'new'}`)),
      el('pre', {}, body.instructions)));
  }
  parts.push(el('details', { class: `item ${JSON.stringify(tools) === prevTools ? 'reused' : 'fresh'}` },
    el('summary', {}, `tools (${tools.length})`),
    el('div', { class: 'items' }, tools.map((t, i) => entry(i, t.name ?? t.type, t, JSON.stringify(t) === JSON.stringify(previous?.tools?.[i]))))));
  parts.push(el('h3', {}, `input (${input.length} items)`));
  parts.push(el('div', { class: 'items input-items' },
    input.map((item, i) => entry(i, itemLabel(item), item, i < prevInput.length && JSON.stringify(prevInput[i]) === JSON.stringify(item)))));
  box.replaceChildren(...parts);
}

function showMode() {
  $('body-raw').setAttribute('aria-pressed', String(!perItem));
  $('body-pretty').setAttribute('aria-pressed', String(perItem));
  $('request-body').hidden = perItem;
  $('request-items').hidden = !perItem;
}

function renderSelected() {
  const index = chosen ?? app.requests.length - 1;
  const request = app.requests[index];
  if (request === undefined) {
    $('request-report').replaceChildren(el('p', { class: 'note' }, 'Send a message: each model request appears here with its exact body.'));
    $('request-body').replaceChildren();
    $('request-items').replaceChildren();
    $('request-badges').textContent = '';
    return;
  }
  $('request-badges').textContent = `${index + 1} of ${app.requests.length}`;
  renderReport(request, index);
  renderBody(request, index);
  renderItems(request, index);
  // Scroll the body box (position: relative) to the first new byte; never the page.
  const pre = $('request-body');
  const fresh = pre.querySelector('mark.fresh');
  if (fresh) pre.scrollTop = Math.max(0, fresh.offsetTop - 48);
}

export function init(appState) {
  app = appState;
  for (const [id, mode] of [['body-raw', false], ['body-pretty', true]]) {
    $(id).addEventListener('click', () => {
      perItem = mode;
      showMode();
    });
  }
  showMode();
  $('request-select').addEventListener('change', (e) => {
    const index = Number(e.target.value);
    chosen = index === app.requests.length - 1 ? null : index;
    renderSelected();
  });
  app.on('request', () => {
    renderList();
    renderSelected();
  });
  app.on('reset', () => {
    chosen = null;
    renderList();
    renderSelected();
  });
}
