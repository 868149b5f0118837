// SPDX-License-Identifier: MIT
// The cached-vs-uncached chart (SVG, no library) and the cost estimate, shared by the live view
// and the replay view so an exported-then-imported rollout draws the same figure.
// series: [{label, input, cached, write?, write_1h?, rule?}] (label: the request id; input
// tokens, of which cached, and — where the provider reports them — of which written to the
// cache, and of those the 1-hour writes; rule: the provider's pricing rule, `anthropic` or
// `openai`, the default), one per request with reported usage; markers: indexes of bars that
// follow a compaction. The x axis names request ids, never bar positions; a bar can open its
// request. The SVG is drawn at its container's CSS width (one SVG unit = one CSS pixel) and
// redrawn when that width changes, so its text is 11 px on every screen, never scaled down.
// Pricing per provider, by each row's rule: Anthropic's — cache reads at 0.1x, writes at 1.25x
// the typed input price (2x for 1-hour writes), the cached-input price unused; OpenAI's — cached
// input at the cached-input price, and the writes the model reports (GPT-5.6 and later; older
// models report none) at 1.25x the input price. The same rules as the engine's
// (core/src/provider/cache/cache_pricing.h).
import { el, fmt, svg } from './util.js';

/** The drawing width while the container has no layout (a hidden tab), and the least one. */
export const W = 640;
const MIN_W = 280;
/** The tallest drawing; a narrow one is lower (about 0.36 of its width, at least 150). */
export const H = 230;
const MIN_H = 150;
/** The height of a chart `width` units wide. */
export const chartHeight = (width) => Math.round(Math.min(H, Math.max(MIN_H, width * 0.36)));
export const PAD = { left: 56, right: 12, top: 14, bottom: 34 };
/** Room per x-axis label (a request number in 11-px text, with a gap). */
const LABEL_SLOT = 34;

/** The width to draw a chart at in `container`: its content width in CSS px. */
export function chartWidth(container) {
  const width = Math.floor(container.clientWidth);
  return width > 0 ? Math.max(MIN_W, width) : W;
}

const drawings = new WeakMap();
let resizes = null;

/**
 * Draws `draw(width)` at the container's width now and again whenever that width changes (a
 * tab shown, a window resized), so the drawing is never scaled.
 */
export function drawAtWidth(container, draw) {
  const width = chartWidth(container);
  drawings.set(container, { draw, width });
  draw(width);
  if (typeof ResizeObserver === 'undefined') return;
  resizes ??= new ResizeObserver((entries) => {
    for (const entry of entries) {
      const drawing = drawings.get(entry.target);
      const now = chartWidth(entry.target);
      if (drawing === undefined || now === drawing.width) continue;
      drawing.width = now;
      drawing.draw(now);
    }
  });
  resizes.observe(container);
}

function niceMax(value) {
  if (value <= 0) return 1000;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * magnitude >= value) return step * magnitude;
  }
  return 10 * magnitude;
}

/**
 * The frame of an n-bar chart `width` units wide whose tallest bar is `top` tokens: the scale,
 * the bar slots, the y mapping and the grid with its labels (shared by the live and the replay
 * chart).
 */
export function chartFrame(n, top, width = W) {
  const max = niceMax(top);
  const plotW = width - PAD.left - PAD.right;
  const height = chartHeight(width);
  const plotH = height - PAD.top - PAD.bottom;
  const slot = n > 0 ? plotW / n : plotW;
  const barW = Math.max(2, Math.min(36, slot * 0.7));
  const y = (v) => PAD.top + plotH - (v / max) * plotH;
  const items = [];
  for (const frac of [0, 0.25, 0.5, 0.75, 1]) {
    const v = max * frac;
    items.push(svg('line', { x1: PAD.left, x2: width - PAD.right, y1: y(v), y2: y(v), class: 'grid' }));
    items.push(svg('text', { x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, fmt(Math.round(v))));
  }
  const labels = Math.max(1, Math.floor(plotW / LABEL_SLOT));
  return { W: width, H: height, max, plotW, plotH, slot, barW, y, items, labelEvery: Math.max(1, Math.ceil(n / labels)) };
}

/** The axis label of a request id: its number for `req-N`, else the id. */
export const idLabel = (id) => String(id).replace(/^req-/, '');

/**
 * The x-axis labels (request ids, every `labelEvery`th bar), the compaction markers (a label
 * that would leave the plot on the right is drawn to the left of its line) and the axis title.
 */
export function axisItems(ids, markers, { W: width, H: height, slot, y, plotW, labelEvery }) {
  const items = [];
  ids.forEach((id, i) => {
    if (i % labelEvery !== 0) return;
    const x = PAD.left + i * slot + slot / 2;
    items.push(svg('text', { x, y: height - PAD.bottom + 14, 'text-anchor': 'middle', class: 'axis x' }, idLabel(id)));
  });
  for (const m of markers) {
    const x = PAD.left + m * slot;
    const left = x + 3 + MARKER_LABEL_WIDTH > width - PAD.right;
    items.push(svg('line', { x1: x, x2: x, y1: PAD.top, y2: y(0), class: 'marker' }));
    items.push(svg('text', { x: left ? x - 3 : x + 3, y: PAD.top + 10, 'text-anchor': left ? 'end' : 'start', class: 'marker-label' }, 'compaction'));
  }
  const named = ids.some((id) => /^req-/.test(String(id)));
  items.push(svg('text', { x: PAD.left + plotW / 2, y: height - 4, 'text-anchor': 'middle', class: 'axis' }, named ? 'request id (req-N)' : 'request id'));
  return items;
}

/** Width of the 11-px "compaction" marker label, generously (about 0.6 em per character). */
const MARKER_LABEL_WIDTH = 68;

/**
 * A clickable bar group: `onBar(id)` on click, Enter or Space (a button for keyboard users,
 * named by `title`).
 */
export function barGroup(id, title, onBar, ...rects) {
  if (onBar === undefined) return svg('g', { class: 'bar', 'data-request': id }, ...rects);
  const group = svg('g', { class: 'bar clickable', 'data-request': id, role: 'button', tabindex: '0', 'aria-label': title }, ...rects);
  group.addEventListener('click', () => onBar(id));
  group.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    onBar(id);
  });
  return group;
}

/**
 * Renders the chart into `container` (replacing its content). `counts` ({total, notDrawn}) says
 * how many requests the session has and which of them are not bars, so the figure's count is
 * the one every other view shows; `onBar(id)` makes each bar open its request.
 */
export function renderChart(container, options) {
  drawAtWidth(container, (width) => drawChart(container, options, width));
}

function drawChart(container, { series, markers = [], caption, counts, onBar }, width) {
  const id = container.id;
  const n = series.length;
  const frame = chartFrame(n, Math.max(0, ...series.map((s) => s.input)), width);
  const { slot, barW, y, items } = frame;
  series.forEach((s, i) => {
    const x = PAD.left + i * slot + (slot - barW) / 2;
    const uncached = Math.max(0, s.input - s.cached);
    const title = `${s.label}: ${fmt(s.cached)} cached, ${fmt(uncached)} uncached${onBar ? ' — open it in Requests' : ''}`;
    items.push(barGroup(s.label, title, onBar,
      // Under the bar, the whole plot height: clickable even where the bar is tiny.
      svg('rect', { x, y: PAD.top, width: barW, height: y(0) - PAD.top, class: 'hit' }, svg('title', {}, title)),
      svg('rect', { x, y: y(s.cached), width: barW, height: y(0) - y(s.cached), class: 'cached' }, svg('title', {}, title)),
      svg('rect', { x, y: y(s.input), width: barW, height: y(s.cached) - y(s.input), class: 'uncached' }, svg('title', {}, title))));
  });
  items.push(...axisItems(series.map((s) => s.label), markers, frame));

  const totalInput = series.reduce((a, s) => a + s.input, 0);
  const totalCached = series.reduce((a, s) => a + s.cached, 0);
  const total = counts?.total ?? n;
  const notDrawn = (counts?.notDrawn ?? []).filter(([k]) => k > 0).map(([k, what]) => `${k} ${what}`);
  const requests = `${total} request${total === 1 ? '' : 's'}` + (notDrawn.length ? ` (${n} drawn; not drawn: ${notDrawn.join(', ')})` : '');
  const summary = total === 0
    ? 'No requests yet.'
    : `${requests}, ${fmt(totalInput)} input tokens drawn, ${fmt(totalCached)} cached (${totalInput ? Math.round((100 * totalCached) / totalInput) : 0} %)` +
      (markers.length ? `, ${markers.length} compaction${markers.length > 1 ? 's' : ''}` : '');

  const figure = el('figure', {
    class: 'chart-figure',
    dataset: { series: JSON.stringify(series.map((s) => [s.input, s.cached])), markers: JSON.stringify(markers), requests: String(total) },
  },
  el('figcaption', { id: `${id}-caption` }, caption, ' ',
    el('span', { class: 'key cached' }, 'cached'), ' ', el('span', { class: 'key uncached' }, 'uncached'),
    onBar ? el('span', { class: 'hint' }, ' — click a bar to open its request') : ''),
  svg('svg', { viewBox: `0 0 ${width} ${frame.H}`, role: 'group', 'aria-labelledby': `${id}-caption ${id}-desc`, class: 'bars' },
    svg('desc', { id: `${id}-desc` }, summary), ...items),
  el('p', { class: 'chart-summary' }, summary),
  el('details', {}, el('summary', {}, 'Data table'),
    el('table', {},
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'request'),
        el('th', { scope: 'col' }, 'input'), el('th', { scope: 'col' }, 'cached'), el('th', { scope: 'col' }, 'uncached'))),
      el('tbody', {}, series.map((s) => el('tr', {}, el('td', {}, s.label),
        el('td', {}, fmt(s.input)), el('td', {}, fmt(s.cached)), el('td', {}, fmt(s.input - s.cached))))))));
  container.replaceChildren(figure);
}

/** Anthropic's multipliers of the input price (docs/providers.md). */
export const ANTHROPIC_READ = 0.1;
export const ANTHROPIC_WRITE = 1.25;
export const ANTHROPIC_WRITE_1H = 2;

/** OpenAI's multiplier of the input price for the cache writes GPT-5.6 and later report. */
export const OPENAI_WRITE = 1.25;

const anthropicPriced = (s) => s.rule === 'anthropic';

/** The rule the series is priced by: `openai`, `anthropic`, `mixed`, or `fallback` when empty. */
export function pricingRule(series, fallback = 'openai') {
  const anthropic = series.filter(anthropicPriced).length;
  if (series.length === 0) return fallback;
  return anthropic === 0 ? 'openai' : anthropic === series.length ? 'anthropic' : 'mixed';
}

/** The words that say which rule a cost figure uses. */
export function pricingRuleText(rule) {
  const anthropic = `Anthropic pricing: cache reads at ${ANTHROPIC_READ}× and cache writes at ${ANTHROPIC_WRITE}× ` +
    `the input price (${ANTHROPIC_WRITE_1H}× for 1-hour writes; the cached-input price is not used)`;
  const openai = `OpenAI pricing: cached input at the cached-input price, cache writes (reported by GPT-5.6 and later) at ${OPENAI_WRITE}× the input price`;
  if (rule === 'anthropic') return anthropic;
  if (rule === 'mixed') return `Each request priced by its provider — ${openai}; ${anthropic}`;
  return openai;
}

/** Estimated cost in dollars: with caching as reported, and with no caching at all. */
export function estimateCost(series, prices, outputTokens) {
  let withCache = 0;
  let without = 0;
  for (const s of series) {
    const write = Math.min(s.write ?? 0, Math.max(0, s.input - s.cached));
    if (anthropicPriced(s)) {
      const write1h = Math.min(s.write_1h ?? 0, write);
      withCache += (s.input - s.cached - write) * prices.input + s.cached * ANTHROPIC_READ * prices.input +
        (write - write1h) * ANTHROPIC_WRITE * prices.input + write1h * ANTHROPIC_WRITE_1H * prices.input;
    } else {
      withCache += (s.input - s.cached - write) * prices.input + s.cached * prices.cached + write * OPENAI_WRITE * prices.input;
    }
    without += s.input * prices.input;
  }
  withCache += outputTokens * prices.output;
  without += outputTokens * prices.output;
  return { withCache: withCache / 1e6, without: without / 1e6 };
}

/** Said instead of a cost when no request reported usage (e.g. an older Codex rollout). */
export const NO_USAGE = 'No usage recorded — cost cannot be estimated.';

/** The cost sentence for a series (NO_USAGE for an empty one: $0 would be a false figure). */
export function costText(series, prices, outputTokens) {
  if (series.length === 0) return NO_USAGE;
  const { withCache, without } = estimateCost(series, prices, outputTokens);
  const saved = without > 0 ? Math.round((100 * (without - withCache)) / without) : 0;
  return `Estimated cost: $${withCache.toFixed(4)} (without prompt caching $${without.toFixed(4)}; ${saved} % saved) — ` +
    `${fmt(outputTokens)} output tokens included.`;
}
