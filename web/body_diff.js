// SPDX-License-Identifier: MIT
// Which bytes of a request body the previous request's prompt cache can reuse, compared in the
// order the provider reads the prompt — OpenAI (Responses, Chat Completions): the instructions,
// then the tools, then the conversation (`input` or `messages`); Anthropic Messages (a body with
// `system` and `messages`): the tools, then `system`, then the messages — whatever order the
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
// Not reused is split further, so the eye finds the change itself:
//  - `changed`: bytes that differ from the previous request's (in an array — tools, items —
//    the elements between the runs equal to the previous array's at its start and at its end;
//    in a string, the middle between the common prefix and suffix); the element holding the
//    first differing byte always counts as changed;
//  - unchanged (`changed: false`): bytes the previous request sent too, re-sent uncached only
//    because they come after the first difference;
//  - a plain member whose value differs (a model or prompt_cache_key change) is `changed` too;
//  - `firstDiff`: the body offset of the first differing byte in prompt order (the model or
//    cache-key member for a namespace break), where the explainer's break points; the run
//    starting there has `first: true`.
import { commonPrefix } from './util.js';

/** The prompt parts in OpenAI's prompt order, each by the member names that hold it. */
export const PROMPT_PARTS = [
  { name: 'instructions', keys: ['instructions', 'system'] },
  { name: 'tools', keys: ['tools'] },
  { name: 'input', keys: ['input', 'messages'] },
];

/** Anthropic's cache order: tools → system → messages (docs/providers.md). */
const ANTHROPIC_PARTS = [PROMPT_PARTS[1], PROMPT_PARTS[0], PROMPT_PARTS[2]];

/** The prompt parts of a body (its member table) in the order its provider reads them. */
export const promptPartsOf = (table) => (table.has('system') && table.has('messages') ? ANTHROPIC_PARTS : PROMPT_PARTS);

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

/** Length of the common suffix of two strings, at most `limit` (UTF-16 units). */
function commonSuffix(a, b, limit) {
  let n = 0;
  while (n < limit && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n += 1;
  return n;
}

/**
 * Splits the not-reused bytes [from, p.end) of prompt part `p` into [start, end, changed]
 * segments against the previous request's text of the part (`before`; null: there was none).
 * `first`: the part holds the first differing byte, at `from`.
 */
function changedSegments(body, p, from, before, first) {
  if (from >= p.end) return [];
  if (before === null) return [[from, p.end, true]];
  const segments = [];
  if (body[p.start] === '[' && before.startsWith('[')) {
    // Arrays (tools, items, system blocks): the elements equal to the previous array's, aligned
    // from its start and from its end, are unchanged; the ones between them changed.
    const old = elements(before, 0, before.length).map((e) => before.slice(e.start, e.end));
    const now = elements(body, p.start, p.end);
    const text = (i) => body.slice(now[i].start, now[i].end);
    let head = 0;
    while (head < old.length && head < now.length && old[head] === text(head)) head += 1;
    let tail = 0;
    const room = Math.min(old.length, now.length) - head;
    while (tail < room && old[old.length - 1 - tail] === text(now.length - 1 - tail)) tail += 1;
    let at = from;
    now.forEach((e, i) => {
      if (e.end <= from) return;
      const unchanged = i < head || i >= now.length - tail;
      segments.push([at, e.end, !unchanged || (first && at === from)]);
      at = e.end;
    });
    segments.push([at, p.end, false]);
  } else {
    const text = body.slice(p.start, p.end);
    const head = Math.max(from - p.start, commonPrefix(before, text));
    const tail = commonSuffix(before, text, Math.min(before.length, text.length) - head);
    segments.push([from, p.start + head, false], [p.start + head, p.end - tail, true], [p.end - tail, p.end, false]);
  }
  return segments.filter(([a, b]) => b > a);
}

/** Plain members whose value differs from the previous body's: [start, end] ranges. */
function changedMembers(body, cur, previous, prev, parts) {
  const prompt = new Set(parts.map((p) => p.key));
  const out = [];
  if (previous === '') return out;
  for (const [key, range] of cur) {
    if (prompt.has(key)) continue;
    if (memberText(previous, prev, key) !== body.slice(range.start, range.end)) out.push([key, range.start, range.end]);
  }
  return out;
}

/**
 * Compares `body` with `previous` (the previous request's body, '' for none) in prompt order.
 * `report` is the request's cache_report (or null). Returns {parts, runs, reused, fresh,
 * freshFrom, firstDiff, promptOrder, bodyOrder}: parts [{name, key, start, end, reusedEnd}] in
 * prompt order; runs [{start, end, kind: 'reused' | 'fresh' | 'plain', changed, first}]
 * covering the body in body order (see the header for `changed` and `first`); the reused and
 * fresh character counts; the part where the first not-reused byte is (or null); the body
 * offset of the first differing byte (or null); promptOrder false when the body is not a JSON
 * object with prompt parts (then the runs are the plain byte comparison: common prefix reused,
 * the rest fresh up to an unchanged tail); bodyOrder and readOrder: the part names in the order
 * the body writes them and in the order the provider reads (and this compares) them.
 */
export function promptDiff(previous, body, report) {
  const cur = members(body);
  const prev = previous === '' ? new Map() : members(previous);
  const order = cur === null ? PROMPT_PARTS : promptPartsOf(cur);
  const parts = cur === null ? [] : order.map((spec) => part(body, cur, spec)).filter(Boolean);
  if (cur === null || prev === null || parts.length === 0) return byteDiff(previous, body);
  const section = report?.break?.section;
  let diverged = previous === '' || section === 'model' || section === 'cache_key' ||
    memberText(body, cur, 'model') !== memberText(previous, prev, 'model') ||
    memberText(body, cur, 'prompt_cache_key') !== memberText(previous, prev, 'prompt_cache_key');
  const namespace = diverged;
  let freshFrom = null;
  let firstDiff = null;
  for (const p of parts) {
    const found = order.find((s) => s.name === p.name).keys.map((k) => memberText(previous, prev, k)).find((t) => t !== undefined);
    const before = found ?? '';
    p.before = previous === '' ? null : found ?? null;
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
    if (reused < p.text.length && freshFrom === null) {
      freshFrom = p.name;
      if (!namespace) firstDiff = p.reusedEnd;
    }
  }
  const settings = changedMembers(body, cur, previous, prev, parts);
  if (namespace && previous !== '') {
    // A namespace break: the first difference is the model or cache-key value, not the prompt.
    const key = settings.find(([k]) => k === 'model' || k === 'prompt_cache_key');
    firstDiff = key ? key[1] : parts[0].start;
  } else if (previous === '') {
    firstDiff = parts[0].start;
  }
  const runs = [];
  let at = 0;
  const push = (start, end, kind, changed = false) => {
    if (end <= start) return;
    const last = runs.at(-1);
    if (last && last.kind === kind && last.changed === changed && last.end === start && start !== firstDiff) last.end = end;
    else runs.push({ start, end, kind, changed, first: start === firstDiff });
  };
  const plain = (start, end) => {
    for (const [, a, b] of settings) {
      if (b <= start || a >= end) continue;
      push(start, Math.max(start, a), 'plain');
      push(Math.max(start, a), Math.min(end, b), 'plain', true);
      start = Math.min(end, b);
    }
    push(start, end, 'plain');
  };
  for (const p of [...parts].sort((a, b) => a.start - b.start)) {
    plain(at, p.start);
    push(p.start, p.reusedEnd, 'reused');
    const first = firstDiff === p.reusedEnd && freshFrom === p.name;
    for (const [a, b, changed] of changedSegments(body, p, p.reusedEnd, p.before, first)) push(a, b, 'fresh', changed);
    at = p.end;
  }
  plain(at, body.length);
  if (firstDiff !== null && !runs.some((r) => r.first)) firstDiff = null;
  for (const p of parts) delete p.before;
  const bodyOrder = [...parts].sort((a, b) => a.start - b.start).map((p) => p.name);
  return summarise({ parts, runs, freshFrom, firstDiff, promptOrder: true, bodyOrder, readOrder: parts.map((p) => p.name) });
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
  const changed = shared < body.length - tail;
  const runs = [
    { start: 0, end: shared, kind: 'reused', changed: false, first: false },
    { start: shared, end: body.length - tail, kind: 'fresh', changed: true, first: true },
    { start: body.length - tail, end: body.length, kind: 'plain', changed: false, first: false },
  ].filter((r) => r.end > r.start);
  return summarise({
    parts: [], runs, freshFrom: changed ? 'body' : null, firstDiff: changed ? shared : null, promptOrder: false, bodyOrder: [], readOrder: [],
  });
}

function summarise(diff) {
  const count = (kind) => diff.runs.filter((r) => r.kind === kind).reduce((a, r) => a + r.end - r.start, 0);
  return { ...diff, reused: count('reused'), fresh: count('fresh') };
}
