// SPDX-License-Identifier: MIT
// Which bytes of a request body the previous request's prompt cache can reuse, compared in the
// order the provider reads the prompt — the instructions (Responses `instructions`, Anthropic
// `system`), then the tools, then the conversation (`input` or `messages`) — whatever order the
// body's JSON members are written in (a Responses body lists the tools after the input). The
// cache-break explainer compares the same order, so the highlight starts where its break says:
// a tools change leaves the instructions and the tools before it reused and every conversation
// byte after it not reused, even where those bytes are unchanged.
// Rules, per prompt part in that order, while nothing has differed yet:
//  - a model or prompt_cache_key change (the explainer's namespace breaks) reuses nothing;
//  - a part equal to the previous one is reused whole;
//  - the conversation without a reported break reuses the previous request's items (a provider
//    may re-render an old item, e.g. move an Anthropic cache_control mark, without a break);
//  - otherwise the part is reused up to the first differing byte;
// and every part after the first difference is not reused. Members outside the prompt parts
// (model, stream, options) and the JSON between them are neither: shown plain.
import { commonPrefix } from './util.js';

/** The prompt parts in prompt order, each by the member names that hold it. */
export const PROMPT_PARTS = [
  { name: 'instructions', keys: ['instructions', 'system'] },
  { name: 'tools', keys: ['tools'] },
  { name: 'input', keys: ['input', 'messages'] },
];

const WS = new Set([' ', '\n', '\r', '\t']);

function skipWs(text, i) {
  while (i < text.length && WS.has(text[i])) i += 1;
  return i;
}

/** The end (exclusive) of the JSON string starting at `i` (a quote). */
function stringEnd(text, i) {
  for (let j = i + 1; j < text.length; j += 1) {
    if (text[j] === '\\') j += 1;
    else if (text[j] === '"') return j + 1;
  }
  return -1;
}

/** The end (exclusive) of the JSON value starting at `i`. */
function valueEnd(text, i) {
  if (text[i] === '"') return stringEnd(text, i);
  if (text[i] === '{' || text[i] === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j += 1) {
      const c = text[j];
      if (c === '"') {
        j = stringEnd(text, j) - 1;
        if (j < 0) return -1;
      } else if (c === '{' || c === '[') {
        depth += 1;
      } else if (c === '}' || c === ']') {
        depth -= 1;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < text.length && !',}]'.includes(text[j]) && !WS.has(text[j])) j += 1;
  return j > i ? j : -1;
}

/** Top-level members of a JSON object text: Map key -> {start, end} of the value; null if not one. */
export function members(text) {
  let i = skipWs(text, 0);
  if (text[i] !== '{') return null;
  const out = new Map();
  i = skipWs(text, i + 1);
  if (text[i] === '}') return out;
  while (i < text.length) {
    if (text[i] !== '"') return null;
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return null;
    const key = JSON.parse(text.slice(i, keyEnd));
    i = skipWs(text, keyEnd);
    if (text[i] !== ':') return null;
    const start = skipWs(text, i + 1);
    const end = valueEnd(text, start);
    if (end < 0) return null;
    out.set(key, { start, end });
    i = skipWs(text, end);
    if (text[i] === '}') return out;
    if (text[i] !== ',') return null;
    i = skipWs(text, i + 1);
  }
  return null;
}

/** The element ranges [{start, end}] of the JSON array text[start, end). */
export function elements(text, start, end) {
  const out = [];
  if (text[start] !== '[') return out;
  let i = skipWs(text, start + 1);
  while (i < end && text[i] !== ']') {
    const e = valueEnd(text, i);
    if (e < 0) return out;
    out.push({ start: i, end: e });
    i = skipWs(text, e);
    if (text[i] === ',') i = skipWs(text, i + 1);
  }
  return out;
}

function part(text, table, spec) {
  if (table === null) return null;
  for (const key of spec.keys) {
    const range = table.get(key);
    if (range) return { name: spec.name, key, ...range, text: text.slice(range.start, range.end) };
  }
  return null;
}

const memberText = (text, table, key) => {
  const r = table.get(key);
  return r ? text.slice(r.start, r.end) : undefined;
};

/**
 * Compares `body` with `previous` (the previous request's body, '' for none) in prompt order.
 * `report` is the request's cache_report (or null). Returns {parts, runs, reused, fresh,
 * freshFrom, promptOrder}: parts [{name, key, start, end, reusedEnd}] in prompt order; runs
 * [{start, end, kind: 'reused' | 'fresh' | 'plain'}] covering the body in body order; the
 * reused and fresh character counts; the part where the first not-reused byte is (or null);
 * promptOrder false when the body is not a JSON object with prompt parts (then the runs are
 * the plain byte comparison: common prefix reused, the rest fresh up to an unchanged tail).
 */
export function promptDiff(previous, body, report) {
  const cur = members(body);
  const prev = previous === '' ? new Map() : members(previous);
  const parts = cur === null ? [] : PROMPT_PARTS.map((spec) => part(body, cur, spec)).filter(Boolean);
  if (cur === null || prev === null || parts.length === 0) return byteDiff(previous, body);
  const section = report?.break?.section;
  let diverged = previous === '' || section === 'model' || section === 'cache_key' ||
    memberText(body, cur, 'model') !== memberText(previous, prev, 'model') ||
    memberText(body, cur, 'prompt_cache_key') !== memberText(previous, prev, 'prompt_cache_key');
  let freshFrom = null;
  for (const p of parts) {
    const before = PROMPT_PARTS.find((s) => s.name === p.name).keys.map((k) => memberText(previous, prev, k)).find((t) => t !== undefined) ?? '';
    let reused = 0;
    if (!diverged) {
      if (before === p.text) {
        reused = p.text.length;
      } else if (p.name === 'input' && report && !report.break) {
        const old = elements(previous, ...rangeOf(prev, p.key));
        const now = elements(body, p.start, p.end);
        reused = old.length > 0 && now.length >= old.length ? now[old.length - 1].end - p.start : commonPrefix(before, p.text);
      } else {
        reused = commonPrefix(before, p.text);
      }
      if (reused < p.text.length) diverged = true;
    }
    p.reusedEnd = p.start + reused;
    if (reused < p.text.length && freshFrom === null) freshFrom = p.name;
  }
  const runs = [];
  let at = 0;
  const push = (start, end, kind) => {
    if (end <= start) return;
    const last = runs.at(-1);
    if (last && last.kind === kind && last.end === start) last.end = end;
    else runs.push({ start, end, kind });
  };
  for (const p of [...parts].sort((a, b) => a.start - b.start)) {
    push(at, p.start, 'plain');
    push(p.start, p.reusedEnd, 'reused');
    push(p.reusedEnd, p.end, 'fresh');
    at = p.end;
  }
  push(at, body.length, 'plain');
  return summarise({ parts, runs, freshFrom, promptOrder: true });
}

function rangeOf(table, key) {
  const r = table.get(key);
  return r ? [r.start, r.end] : [0, 0];
}

/** The plain comparison in body order (a body that is not a JSON object). */
function byteDiff(previous, body) {
  const shared = commonPrefix(previous, body);
  let tail = 0;
  const limit = Math.min(previous.length, body.length) - shared;
  while (tail < limit && previous.charCodeAt(previous.length - 1 - tail) === body.charCodeAt(body.length - 1 - tail)) tail += 1;
  const runs = [
    { start: 0, end: shared, kind: 'reused' },
    { start: shared, end: body.length - tail, kind: 'fresh' },
    { start: body.length - tail, end: body.length, kind: 'plain' },
  ].filter((r) => r.end > r.start);
  return summarise({ parts: [], runs, freshFrom: shared < body.length - tail ? 'body' : null, promptOrder: false });
}

function summarise(diff) {
  const count = (kind) => diff.runs.filter((r) => r.kind === kind).reduce((a, r) => a + r.end - r.start, 0);
  return { ...diff, reused: count('reused'), fresh: count('fresh') };
}
