// SPDX-License-Identifier: MIT
// Request inspector: the exact JSON body of every model_request (the bytes the host POSTs), or
// the same body per item (the fields, the instructions, each tool and each conversation item
// collapsible and pretty-printed); either way compared with the previous request's body in
// prompt order (body_diff.js), the order the cache-break explainer uses, so the first differing
// byte is flagged where its break says: reused bytes greyed, bytes not reused highlighted —
// changed ones strongly, unchanged ones re-sent after the difference palely — other members
// plain. Per item, only the changed entries start open.
// Plus the engine's cache_report and, on a break, the explainer's reason in words; the
// provider side of the request (its breakpoint plan, the provider's cache verdict when the
// response completes, a prewarm and the cold-cache estimate before it); and marks for
// what the body asks of the provider: a native tool change (an `additional_tools` item, an
// Anthropic system message's tool_addition / tool_removal) and a compaction trigger (in-band, or
// a server threshold).
// Selection: the newest request while a turn runs; when the turn ends, the request where it
// broke the cache (if it did), named by a banner with a link while another request is shown.
import { elements, promptDiff } from './body_diff.js';
import { selectTab } from './tabs.js';
import { $, el, facts, fmt, pct, pretty } from './util.js';

let app;
let chosen = null; // index into app.requests; null = follow the latest
let perItem = false; // show the body per item instead of as exact bytes
let pendingScroll = false; // the body changed while hidden: scroll to its first new byte when shown
let turnStart = null; // index of the running turn's first request
let lastBreak = null; // index of the last turn's first request with a cache break

/** What each explainer reason means for the user (docs/protocol.md lists the reasons). */
export const REASONS = {
  model_changed: 'The model changed: prompt caches are per model, so nothing could be reused.',
  cache_key_changed: 'The prompt_cache_key changed: a different cache namespace, nothing reused.',
  provider_changed: 'The provider changed: each provider keeps its own cache, so nothing of the previous prompt could be read (best possible 0 %).',
  instructions_changed: 'The instructions changed; they come first in the prompt, so everything after them was sent uncached.',
  tools_changed: 'The tools array changed — at once under tool_policy "apply", at the next compaction under "defer" — and the tools come before every message, so the conversation after them was re-processed. Under "defer" the array stays frozen until a compaction (which rewrites the history anyway) and a <tools> notice is appended instead.',
  history_rewritten_by_compaction: 'A compaction replaced the history, so the prompt after the instructions and tools is new. This break is expected once per compaction.',
  item_edited: 'An earlier item changed in place. agentctx never edits history itself, so this points at the host or a resume.',
};

/** Tool changes and compaction triggers a body carries (docs/tool-changes.md, docs/compaction-timing.md). */
export function marksOf(text) {
  const body = parseBody(text);
  if (body === null || typeof body !== 'object') return [];
  const marks = [];
  const names = (tools) => (tools ?? []).map((t) => t.name ?? t.definition?.name ?? t.tool?.name ?? t.type).join(', ');
  for (const item of Array.isArray(body.input) ? body.input : []) {
    if (item.type === 'additional_tools') marks.push(['native-tool-change', `Native tool change: additional_tools item (${names(item.tools)}); the tools array is untouched, so the cache holds.`]);
    // Responses has no removal item: native removals are this appended notice (docs/tool-changes.md).
    const text = item.type === 'message' && item.role === 'developer' ? item.content?.[0]?.text ?? '' : '';
    if (text.startsWith('<tools>\nThe following tools were removed and can no longer be called:')) {
      marks.push(['native-tool-change', `Native tool change: removal notice (${text.split('\n- ').slice(1).join(', ').replace('\n</tools>', '')}); the tools array is untouched, so the cache holds.`]);
    }
  }
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (m.role !== 'system' || !Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type === 'tool_addition' || b.type === 'tool_removal') {
        marks.push(['native-tool-change', `Native tool change: system message ${b.type} (${names([b.tool])}); the tools array is untouched, so the cache holds.`]);
      }
    }
  }
  if (body.input?.at?.(-1)?.type === 'compaction_trigger' || body.compaction?.type === 'summarize') {
    marks.push(['compaction-trigger', 'Compaction trigger: this request asks the provider to compact in-band, on the previous request\'s prefix (read from the cache).']);
  }
  const thresholds = [...(Array.isArray(body.context_management) ? body.context_management : []), ...(body.context_management?.edits ?? [])]
    .filter((e) => e.type === 'compaction' || e.type === 'compact_20260112');
  for (const e of thresholds) {
    marks.push(['compaction-trigger', `Compaction threshold: the provider compacts past ${fmt(e.compact_threshold ?? e.trigger?.value)} input tokens (${e.type}).`]);
  }
  return marks;
}

/** The marks of app.requests[index] minus the tool changes an earlier request already carried. */
function newMarks(index) {
  const request = app.requests[index];
  const before = app.requests.slice(0, index).findLast((r) => r.id !== request.id);
  const seen = new Map();
  for (const [kind, text] of before ? marksOf(before.body) : []) {
    if (kind === 'native-tool-change') seen.set(text, (seen.get(text) ?? 0) + 1);
  }
  return marksOf(request.body).filter(([kind, text]) => {
    const n = seen.get(text) ?? 0;
    if (kind !== 'native-tool-change' || n === 0) return true;
    seen.set(text, n - 1);
    return false;
  });
}

function option(request, index) {
  const r = request.report;
  const tag = r === null ? '' : r.break ? ` — break: ${r.break.reason}` : ` — reuse ${pct(r.reuse_bp)}`;
  const attempt = request.attempt > 1 ? ` (attempt ${request.attempt})` : '';
  const kinds = new Set(newMarks(index).map(([kind]) => kind));
  const marked = `${kinds.has('native-tool-change') ? ' · tool change' : ''}${kinds.has('compaction-trigger') ? ' · compaction trigger' : ''}`;
  return el('option', { value: String(index) }, `${request.id}${attempt} · ${request.purpose}${tag}${marked}`);
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
  const marks = newMarks(index);
  if (marks.length > 0) {
    parts.push(el('ul', { class: 'marks' }, marks.map(([kind, text]) => el('li', { class: `mark ${kind}`, dataset: { mark: kind } }, text))));
  }
  parts.push(...providerFacts(request));
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

/** Words for the breakpoint planner's reasons (docs/providers.md). */
const BREAKPOINT_REASONS = {
  end_of_tools: 'placed after the tools', end_of_system: 'placed after the system prompt',
  end_of_session_context: 'placed after the session context', newest_history_item: 'placed on the newest item',
  below_minimum: 'not placed: the prefix is under the cacheable minimum', same_as_newest: 'not placed: same point as the newest item',
  no_tools: 'not placed: no tools', no_system: 'not placed: no system prompt', no_session_context: 'not placed: no session context',
  no_messages: 'not placed: no messages', implicit_breakpoint: 'the provider\'s implicit breakpoint at the newest message',
  no_compaction: 'not placed: no compaction yet',
};

/** The provider-side facts of a request: its breakpoint plan, the provider's verdict, a prewarm. */
function providerFacts(request) {
  const out = [];
  const r = request.report;
  if (request.purpose === 'prewarm') {
    out.push(el('p', { class: 'prewarm', dataset: { facts: 'prewarm' } },
      'Prewarm: the same prompt sent first to write it to the provider\'s cache (generating nothing), so the turn request after it reads the prefix.'));
  }
  if (request.cold) {
    const c = request.cold;
    out.push(el('p', { class: 'cold', dataset: { facts: 'cache-cold' } },
      `Cache cold: idle ${minutes(c.idle_ms)} past the ${minutes(c.cache_ttl_ms)} cache TTL; ` +
      `~${fmt(c.prompt_tokens)} prompt tokens cost $${c.cost_usd.toFixed(4)} cold, $${c.warm_cost_usd.toFixed(4)} warm; ` +
      (c.prewarm ? 'prewarmed first.' : 'not prewarmed.')));
  }
  if (Array.isArray(r?.breakpoints)) {
    const writes = r.predicted_cache_write_tokens === undefined ? ''
      : ` — predicted cache writes ${fmt(r.predicted_cache_write_tokens)} tokens` +
        (r.predicted_cache_write_1h_tokens ? ` (${fmt(r.predicted_cache_write_1h_tokens)} under 1 h marks)` : '');
    out.push(el('div', { class: 'breakpoints', dataset: { facts: 'breakpoints' } },
      el('h3', {}, `Breakpoint plan (cache_control)${writes}`),
      el('table', { class: 'plan' },
        el('thead', {}, el('tr', {}, ['at', 'placed', 'why', 'TTL', 'prefix tokens'].map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, r.breakpoints.map((b) => el('tr', { class: b.placed ? 'placed' : 'skipped', dataset: { at: b.at } },
          el('td', {}, b.at + (b.message_index === undefined ? '' : ` (message ${b.message_index})`)),
          el('td', {}, b.placed ? 'yes' : 'no'), el('td', {}, BREAKPOINT_REASONS[b.reason] ?? b.reason),
          el('td', {}, b.ttl ?? '—'), el('td', {}, fmt(b.prefix_tokens))))))));
  }
  const d = request.diagnosis;
  if (d) {
    const ours = d.engine_reason ?? 'no break';
    const words = { agrees: 'agrees with the explainer', differs: 'differs from the explainer', unavailable: 'unavailable' };
    out.push(el('p', { class: `diagnosis ${d.verdict}`, dataset: { facts: 'diagnosis', verdict: d.verdict } },
      `Provider's cache verdict: ${d.provider_reason} (explainer: ${ours}) — ${words[d.verdict] ?? d.verdict}.`));
  }
  return out;
}

const minutes = (ms) => (ms >= 60000 ? `${Math.round(ms / 60000)} min` : `${Math.round(ms / 1000)} s`);

/** The body compared with the previous request's, in prompt order (body_diff.js). */
function diffOf(request, index) {
  const previous = index > 0 ? app.requests[index - 1].body : '';
  return promptDiff(previous, request.body, request.report);
}

/** The element of one run of the byte view: reused, changed, re-sent unchanged, or plain. */
function runNode(body, r) {
  const text = body.slice(r.start, r.end);
  const first = r.first ? ' first-diff' : '';
  if (r.kind === 'reused') return el('span', { class: `reused${first}` }, text);
  if (r.kind === 'fresh') return el('mark', { class: `fresh ${r.changed ? 'changed' : 'resent'}${first}` }, text);
  return r.changed ? el('mark', { class: `changed setting${first}` }, text) : el('span', { class: `tail${first}` }, text);
}

const PART_WORDS = { instructions: 'instructions', tools: 'tools', input: 'conversation' };

function renderBody(request, diff) {
  const pre = $('request-body');
  const body = request.body;
  pre.dataset.reused = String(diff.reused);
  pre.dataset.fresh = String(diff.fresh);
  pre.dataset.freshFrom = diff.freshFrom ?? 'none';
  pre.dataset.firstDiff = diff.firstDiff === null ? 'none' : String(diff.firstDiff);
  pre.replaceChildren(...diff.runs.map((r) => runNode(body, r)));
  // Said only where the body writes the parts in another order than the provider reads them.
  const reordered = diff.promptOrder && diff.bodyOrder.join() !== diff.readOrder.join();
  const note = $('body-order-note');
  note.hidden = !reordered;
  if (reordered) {
    note.textContent = `Compared in prompt order (${diff.readOrder.map((name) => PART_WORDS[name]).join(' → ')}); ` +
      `the body writes ${diff.bodyOrder.map((name) => PART_WORDS[name]).join(' → ')}.`;
  }
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

/**
 * `reused`, or — not reused — `new` (the bytes differ from the previous request's: as the byte
 * view marks them `changed`) or `re-sent` (unchanged, after the first difference).
 */
function status(range, part, diff) {
  if (part !== undefined && range.end <= part.reusedEnd) return 'reused';
  const changed = diff.runs.some((r) => r.kind === 'fresh' && r.changed && r.start < range.end && r.end > range.start);
  return changed ? 'new' : 're-sent';
}

const WORDS = { reused: 'reused', new: 'changed', 're-sent': 'unchanged, after the first difference: not reused' };
const ITEM_CLASS = { reused: 'reused', new: 'fresh changed', 're-sent': 'fresh resent' };

/** An entry is open only where it changed: reused and re-sent entries are folded. */
function entry(index, label, value, state) {
  const json = JSON.stringify(value);
  return el('details', { class: `item ${ITEM_CLASS[state]}`, open: state === 'new' || undefined, dataset: { index: String(index), state } },
    el('summary', {}, el('span', { class: 'item-index' }, `#${index}`), ' ', label, ' ',
      el('span', { class: 'item-size' }, `${fmt(new TextEncoder().encode(json).length)} B · ${WORDS[state]}`)),
    el('pre', {}, pretty(value)));
}

/** The body per item, each marked as the exact-bytes view marks its bytes (same diff). */
function renderItems(request, index, diff) {
  const box = $('request-items');
  const body = parseBody(request.body);
  if (body === null || typeof body !== 'object' || !diff.promptOrder) {
    box.replaceChildren(el('p', { class: 'note' }, 'This body is not a JSON object with a prompt; see the exact bytes.'));
    return;
  }
  const part = (name) => diff.parts.find((p) => p.name === name);
  const [instructions, tools, input] = ['instructions', 'tools', 'input'].map(part);
  const keys = new Set(diff.parts.map((p) => p.key));
  const fields = Object.entries(body).filter(([k]) => !keys.has(k));
  const parts = [facts(fields.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))];
  if (instructions) {
    const value = body[instructions.key];
    const state = status(instructions, instructions, diff);
    parts.push(el('details', { class: `item ${ITEM_CLASS[state]}`, open: state === 'new' || undefined, dataset: { state, part: 'instructions' } },
      el('summary', {}, `${instructions.key} `, el('span', { class: 'item-size' }, `${fmt(instructions.end - instructions.start)} characters · ${WORDS[state]}`)),
      el('pre', {}, typeof value === 'string' ? value : pretty(value))));
  }
  if (tools) {
    const list = Array.isArray(body.tools) ? body.tools : [];
    const ranges = elements(request.body, tools.start, tools.end);
    const states = list.map((t, i) => status(ranges[i], tools, diff));
    // The group opens where a tool in it changed, so the change is never folded away.
    const state = states.includes('new') ? 'new' : status(tools, tools, diff);
    parts.push(el('details', { class: `item ${ITEM_CLASS[state]}`, open: state === 'new' || undefined, dataset: { state, part: 'tools' } },
      el('summary', {}, `tools (${list.length}) · ${WORDS[state]}`),
      el('div', { class: 'items' }, list.map((t, i) => entry(i, t.name ?? t.type, t, states[i])))));
  }
  if (input) {
    const list = Array.isArray(body[input.key]) ? body[input.key] : [];
    const ranges = elements(request.body, input.start, input.end);
    parts.push(el('h3', {}, `${input.key} (${list.length} items)`));
    parts.push(el('div', { class: 'items input-items' },
      list.map((item, i) => entry(i, itemLabel(item), item, status(ranges[i], input, diff)))));
  }
  box.replaceChildren(...parts);
}

function showMode() {
  $('body-raw').setAttribute('aria-pressed', String(!perItem));
  $('body-pretty').setAttribute('aria-pressed', String(perItem));
  $('request-body').hidden = perItem;
  $('request-items').hidden = !perItem;
}

/**
 * Scrolls the body box (position: relative) to the first differing byte (else the first byte
 * that is not reused); never the page. A hidden box has no layout, so the scroll waits until
 * the Requests view is shown.
 */
function scrollToFresh() {
  const pre = $('request-body');
  if (pre.hidden || $('view-inspector').hidden) {
    pendingScroll = true;
    return;
  }
  pendingScroll = false;
  const first = pre.querySelector('.first-diff') ?? pre.querySelector('mark.fresh');
  pre.scrollTop = first ? Math.max(0, first.offsetTop - 48) : 0;
}

/** Request ids in issue order, each once (a retry keeps its request's id). */
const distinctIds = () => [...new Set(app.requests.map((r) => r.id))];

/** The banner naming the last turn's cache break, with a link when another request is shown. */
function renderBanner(index) {
  const banner = $('break-banner');
  const b = lastBreak === null ? undefined : app.requests[lastBreak];
  if (b === undefined) {
    banner.hidden = true;
    return;
  }
  banner.hidden = false;
  banner.dataset.request = b.id;
  const shown = index === lastBreak;
  banner.replaceChildren(`The last turn broke the prompt cache at ${b.id} (${b.report.break.reason})`,
    shown ? ' — shown below.' : ' — ',
    shown ? '' : el('button', { type: 'button', class: 'link', onclick: () => show(lastBreak) }, `show ${b.id}`));
}

function renderSelected() {
  const index = chosen ?? app.requests.length - 1;
  const request = app.requests[index];
  renderBanner(index);
  if (request === undefined) {
    $('request-report').replaceChildren(el('p', { class: 'note' }, 'Send a message: each model request appears here with its exact body.'));
    $('request-body').replaceChildren();
    $('request-items').replaceChildren();
    $('request-badges').textContent = '';
    return;
  }
  const ids = distinctIds();
  const attempt = request.attempt > 1 ? `, attempt ${request.attempt}` : '';
  // The option text may be cut by the select's width: the break reason is said here too.
  const outcome = request.report === null ? '' : request.report.break ? ` · break: ${request.report.break.reason}` : ' · prefix intact';
  const purpose = request.purpose === 'turn' ? '' : ` · ${request.purpose}`;
  $('request-badges').textContent = `${ids.indexOf(request.id) + 1} of ${ids.length} requests${attempt}${purpose}${outcome}`;
  const diff = diffOf(request, index);
  renderReport(request, index);
  renderBody(request, diff);
  renderItems(request, index, diff);
  scrollToFresh();
}

/** Shows app.requests[index] (null: follow the newest). */
function show(index) {
  chosen = index === null || index === app.requests.length - 1 ? null : index;
  renderList();
  renderSelected();
}

/** Opens request `id` (its last attempt) in the Requests view. */
export function showRequest(id) {
  const index = app.requests.findLastIndex((r) => r.id === id);
  if (index < 0) return;
  selectTab('tab-inspector');
  show(index);
  scrollToFresh();
}

export function init(appState) {
  app = appState;
  for (const [id, mode] of [['body-raw', false], ['body-pretty', true]]) {
    $(id).addEventListener('click', () => {
      perItem = mode;
      showMode();
      if (!perItem) scrollToFresh();
    });
  }
  showMode();
  $('view-inspector').addEventListener('tabshow', () => {
    if (pendingScroll) scrollToFresh();
  });
  $('request-select').addEventListener('change', (e) => show(Number(e.target.value)));
  app.on('request', () => {
    renderList();
    renderSelected();
  });
  app.on('busy', (busy) => {
    if (!busy) return;
    // A new turn: follow its requests as they come.
    turnStart = app.requests.length;
    lastBreak = null;
    chosen = null;
  });
  app.on('turn', () => {
    if (turnStart === null) return;
    // The turn's first cache break, not its newest request, is what the user needs to see.
    const index = app.requests.findIndex((r, i) => i >= turnStart && r.report?.break);
    turnStart = null;
    if (index < 0) return;
    lastBreak = index;
    if (chosen === null) show(index);
    else renderSelected();
  });
  app.on('show-request', showRequest);
  // A provider verdict arrives when its response completes, after the request was shown.
  app.on('diagnosis', (request) => {
    const index = chosen ?? app.requests.length - 1;
    if (app.requests[index] === request) renderReport(request, index);
  });
  app.on('reset', () => {
    chosen = null;
    turnStart = null;
    lastBreak = null;
    renderList();
    renderSelected();
  });
}
