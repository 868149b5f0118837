// SPDX-License-Identifier: MIT
// The Replay tab's figures, drawn from a `rollout.inspect` report and its request
// dump: input tokens per request stacked cached / new / lost, the lost part coloured by cause;
// uncached input by cause with its cost at the page's prices (and the cache writes' premium
// where the rollout reports writes); and a diff of any reconstructed
// request against the one before it (items kept, removed and added).
// Invariants: every figure comes from the report (usage counted once per request by the
// engine); the chart draws the reconstructed requests with usage, and the usage-only ones
// (compaction requests, responses without recorded output) are costed but not drawn, and said.
import {
  ANTHROPIC_WRITE, ANTHROPIC_WRITE_1H, OPENAI_WRITE, PAD, axisItems, barGroup, chartFrame, drawAtWidth,
} from './chart.js';

/** The cache writes' premium over the input price of a replay summary, in input-price tokens:
 * under Anthropic pricing 5-minute writes 0.25 each, 1-hour writes 1 each; under OpenAI's
 * (GPT-5.6+ writes) 0.25 each. */
export const writePremiumTokens = (s) => {
  if (s.pricing !== 'anthropic') return s.cache_write_input_tokens * (OPENAI_WRITE - 1);
  const oneHour = Math.min(s.cache_write_1h_input_tokens ?? 0, s.cache_write_input_tokens);
  return (s.cache_write_input_tokens - oneHour) * (ANTHROPIC_WRITE - 1) + oneHour * (ANTHROPIC_WRITE_1H - 1);
};
import { el, fmt, svg } from './util.js';

/** The engine's causes in report order, with the words the page shows. */
export const CAUSES = [
  ['new_input', 'new input (never cacheable)'],
  ['model_changed', 'model switch'],
  ['cache_key_changed', 'cache key changed'],
  ['provider_changed', 'provider switch (its own cache)'],
  ['instructions_changed', 'instructions changed'],
  ['tools_changed', 'tools changed'],
  ['history_rewritten_by_compaction', 'compaction rewrote history'],
  ['item_edited', 'history edited'],
  ['context_edited', 'provider edited the context'],
  ['below_minimum', 'prompt under the cacheable minimum'],
  ['idle_past_ttl', 'idle past the cache TTL'],
  ['concurrent', 'overlapping requests'],
  ['block_rounding', 'cache block rounding (≤ 1 block)'],
  ['server_miss', 'server miss (prefix intact)'],
];
const LABEL = Object.fromEntries(CAUSES);

/** Requests of the report that the chart draws: reconstructed, with usage. */
export function drawnRequests(report) {
  return report.requests.filter((r) => r.reconstructed && r.input_tokens !== null);
}

/**
 * Renders the stacked chart into `container`. data-series keeps [input, cached] per bar; the x
 * axis names request ids; `onBar(id)`, when given, makes each bar open its request.
 */
export function renderReplayChart(container, report, onBar) {
  drawAtWidth(container, (width) => drawReplayChart(container, report, onBar, width));
}

function drawReplayChart(container, report, onBar, width) {
  const id = container.id;
  const rows = drawnRequests(report);
  const n = rows.length;
  const frame = chartFrame(n, Math.max(0, ...rows.map((r) => r.input_tokens)), width);
  const { slot, barW, y, items } = frame;
  const markers = [];
  const present = new Set();
  rows.forEach((r, i) => {
    const x = PAD.left + i * slot + (slot - barW) / 2;
    // Bottom to top: cached, new input, then each lost cause.
    const parts = [['cached', r.cached_input_tokens, 'cached'], ['new_input', r.new_input_tokens, 'cause-new_input']];
    for (const [cause] of CAUSES.slice(1)) {
      const tokens = r.lost_tokens_by_cause?.[cause] ?? 0;
      if (tokens > 0) parts.push([cause, tokens, `cause-${cause}`]);
    }
    const rects = [svg('rect', { x, y: PAD.top, width: barW, height: y(0) - PAD.top, class: 'hit' },
      svg('title', {}, `${r.request_id}: ${fmt(r.input_tokens)} input tokens`))];
    let base = 0;
    for (const [name, tokens, cls] of parts) {
      if (tokens <= 0) continue;
      present.add(name);
      rects.push(svg('rect', { x, y: y(base + tokens), width: barW, height: y(base) - y(base + tokens), class: cls },
        svg('title', {}, `${r.request_id}: ${fmt(tokens)} ${name === 'cached' ? 'cached' : LABEL[name]}`)));
      base += tokens;
    }
    items.push(barGroup(r.request_id, `${r.request_id}: ${fmt(r.input_tokens)} input tokens — show what changed`, onBar, ...rects));
    if (r.after_compaction) markers.push(i);
  });
  items.push(...axisItems(rows.map((r) => r.request_id), markers, frame));
  const s = report.summary;
  const summary = n === 0 ? 'No reconstructed request with reported usage.'
    : `${n} requests drawn, ${fmt(s.input_tokens)} input tokens, ${fmt(s.cached_input_tokens)} cached, ` +
      `${fmt(s.new_input_tokens)} new, ${fmt(s.lost_tokens)} lost`;
  const keys = [['cached', 'cached'], ...CAUSES.filter(([c]) => present.has(c))]
    .flatMap(([c, label]) => [' ', el('span', { class: `key ${c === 'cached' ? 'cached' : `cause-${c}`}` }, label)]);
  const figure = el('figure', {
    class: 'chart-figure',
    dataset: {
      series: JSON.stringify(rows.map((r) => [r.input_tokens, r.cached_input_tokens])),
      markers: JSON.stringify(markers),
      causes: JSON.stringify(rows.map((r) => r.lost_tokens_by_cause)),
    },
  },
  el('figcaption', { id: `${id}-caption` }, 'Imported rollout: input tokens per request —', keys),
  svg('svg', { viewBox: `0 0 ${width} ${frame.H}`, role: 'group', 'aria-labelledby': `${id}-caption ${id}-desc`, class: 'bars' },
    svg('desc', { id: `${id}-desc` }, summary), ...items),
  el('p', { class: 'chart-summary' }, summary),
  el('details', {}, el('summary', {}, 'Data table'),
    el('table', {},
      el('thead', {}, el('tr', {}, ['request', 'input', 'cached', 'new', 'lost', 'cause'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, rows.map((r) => el('tr', {}, el('td', {}, r.request_id),
        el('td', {}, fmt(r.input_tokens)), el('td', {}, fmt(r.cached_input_tokens)), el('td', {}, fmt(r.new_input_tokens)),
        el('td', {}, fmt(r.lost_tokens)), el('td', {}, r.cause ?? '—')))))));
  container.replaceChildren(figure);
}

/** Uncached input by cause: requests, tokens, share, cost at `prices` (per million, dollars). */
export function causeTable(report, prices) {
  const s = report.summary;
  const rows = Object.entries(s.lost_tokens_by_cause);
  if (rows.length === 0) return el('p', { class: 'note', id: 'replay-causes' }, 'No reported usage: nothing to explain.');
  const count = (cause) => report.requests.filter((r) => (r.lost_tokens_by_cause?.[cause] ?? 0) > 0).length;
  const share = (t) => (s.uncached_input_tokens ? `${((100 * t) / s.uncached_input_tokens).toFixed(2)} %` : '—');
  // Where the provider bills writes: the written tokens are uncached too and cost a premium on top.
  const anthropic = s.pricing === 'anthropic';
  const writes = s.cache_write_input_tokens > 0
    ? `; ${fmt(s.cache_write_input_tokens)} of them written to the cache, ` +
      `+$${(writePremiumTokens(s) * prices.input / 1e6).toFixed(4)} at ${anthropic ? ANTHROPIC_WRITE : OPENAI_WRITE}× the input price` +
      (anthropic && s.cache_write_1h_input_tokens > 0 ? ` (${fmt(s.cache_write_1h_input_tokens)} for 1 hour, at ${ANTHROPIC_WRITE_1H}×)` : '')
    : '';
  return el('table', { class: 'causes', id: 'replay-causes' },
    el('caption', {}, `Uncached input by cause: ${fmt(s.uncached_input_tokens)} tokens${writes}`),
    el('thead', {}, el('tr', {}, ['cause', 'requests', 'tokens', 'share', 'cost'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows.map(([cause, tokens]) => el('tr', { dataset: { cause } },
      el('td', {}, el('span', { class: `key cause-${cause}` }, LABEL[cause] ?? cause)), el('td', {}, String(count(cause))),
      el('td', {}, fmt(tokens)), el('td', {}, share(tokens)), el('td', {}, `$${((tokens * prices.input) / 1e6).toFixed(4)}`)))));
}

/** The input items of dumped request `i` as their JSON texts. */
function dumpedInput(dump, i) {
  const out = [];
  for (const [first, end] of dump.requests[i].input) for (let k = first; k < end; k++) out.push(dump.items[k]);
  return out;
}

function itemLabel(text) {
  try {
    const item = JSON.parse(text);
    const kind = item.type === 'message' ? `${item.role} message` : item.type ?? 'item';
    const words = item.type === 'message' ? (item.content ?? []).map((p) => p.text ?? '').join(' ')
      : item.output ?? item.arguments ?? item.name ?? '';
    const preview = String(words).replace(/\s+/g, ' ').slice(0, 120);
    return `${kind}${preview ? `: ${preview}` : ''}`;
  } catch {
    return text.slice(0, 120);
  }
}

function itemNode(text, kind) {
  return el('li', { class: kind }, el('details', {}, el('summary', {}, `${kind === 'added' ? '+' : '−'} ${itemLabel(text)}`),
    el('pre', { class: 'json' }, text)));
}

/** The diff of dumped request `i` against the previous dumped request. */
export function requestDiff(report, dump, i) {
  const id = dump.requests[i].request_id;
  const row = report.requests.find((r) => r.request_id === id);
  const current = dumpedInput(dump, i);
  if (i === 0) {
    return el('div', { class: 'diff' }, el('p', {}, `${id}: the first request, ${current.length} items, all new.`),
      el('ul', { class: 'items' }, current.map((t) => itemNode(t, 'added'))));
  }
  const previous = dumpedInput(dump, i - 1);
  let same = 0;
  while (same < previous.length && same < current.length && previous[same] === current[same]) same += 1;
  const prevId = dump.requests[i - 1].request_id;
  const at = row?.break?.item_index === undefined ? '' : ` at item ${row.break.item_index}`;
  const why = row?.break ? `break: ${row.break.reason} (section ${row.break.section})${at}`
    : 'the previous input is a prefix of this one';
  const usage = row?.input_tokens == null ? 'no reported usage'
    : `${fmt(row.input_tokens)} input, ${fmt(row.cached_input_tokens)} cached, ${fmt(row.new_input_tokens)} new, ` +
      `${fmt(row.lost_tokens)} lost${row.cause && row.cause !== 'new_input' ? ` (${LABEL[row.cause] ?? row.cause})` : ''}`;
  const instructions = dump.requests[i].instructions !== dump.requests[i - 1].instructions ? ' Instructions differ.' : '';
  const model = dump.requests[i].model !== dump.requests[i - 1].model
    ? ` Model ${dump.requests[i - 1].model || '(none)'} → ${dump.requests[i].model || '(none)'}.` : '';
  return el('div', { class: 'diff', dataset: { kept: String(same), removed: String(previous.length - same), added: String(current.length - same) } },
    el('p', {}, `${id} against ${prevId}: ${same} items kept, ${previous.length - same} removed, ${current.length - same} added; ${why}.${model}${instructions}`),
    el('p', {}, usage),
    el('ul', { class: 'items' }, previous.slice(same).map((t) => itemNode(t, 'removed')), current.slice(same).map((t) => itemNode(t, 'added'))));
}
