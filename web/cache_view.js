// SPDX-License-Identifier: MIT
// "Cache & cost" view: cached vs uncached input tokens of every request as reported in
// token_usage (the mock's prompt-cache simulator, or the real API), by request id, each bar
// opening its request in the Requests view; compaction markers; the session's request count
// (the one every view shows, with the requests that are not bars); a running
// cost estimate with editable per-million prices (example defaults) under each request's
// provider rule (chart.js; labelled), and the session's cache_summary (the explainer's totals,
// breaks by reason, and the engine's cost at the typed prices by the session's provider rule);
// then the provider side: the next request's breakpoint plan, prewarms, the last cold cache.
import { costText, pricingRule, pricingRuleText, renderChart } from './chart.js';
import { $, el, facts, fmt, pct } from './util.js';

let app;

/** The per-million prices typed in the view (shared with the replay view). */
export function prices() {
  const read = (id) => Math.max(0, Number($(id).value) || 0);
  return { input: read('price-input'), cached: read('price-cached'), output: read('price-output') };
}

// One bar's data from a token_usage event; `write` only when the provider reports cache writes
// (Anthropic, OpenAI GPT-5.6+), `write_1h` when it splits them by TTL; `rule` by the endpoint
// the request went to (Anthropic's Messages or an OpenAI one).
const bar = (u, endpoints) => ({
  label: u.request_id, input: u.input_tokens, cached: u.cached_tokens, write: u.cache_creation_tokens, write_1h: u.cache_creation_1h_tokens,
  rule: endpoints.get(u.request_id) === 'messages' ? 'anthropic' : 'openai',
});

/** The live series: one bar per request with reported usage. */
export function liveSeries() {
  const endpoints = new Map(app.requests.map((r) => [r.id, r.endpoint]));
  const series = app.usage.map((u) => bar(u, endpoints));
  const markers = app.usage.flatMap((u, i) => (u.compactionBefore ? [i] : []));
  const output = [...app.usage, ...app.compactionUsage].reduce((a, u) => a + u.output_tokens, 0);
  const compactions = app.compactionUsage.map((u) => bar(u, endpoints));
  return { series, markers, output, compactions };
}

/** Shows which pricing rule a cost line uses (data-rule: openai | anthropic | mixed). */
export function showRule(node, rule) {
  node.dataset.rule = rule;
  node.textContent = pricingRuleText(rule);
}

/** cache_summary with the engine's cost at the typed prices (the session's provider rule). */
function summaryWithCost() {
  const p = prices();
  const anthropic = (app.config?.provider ?? 'responses') === 'anthropic';
  // Anthropic's reads cost 0.1x input: the typed cached-input price is not sent.
  const typed = anthropic ? { input: p.input, output: p.output } : { input: p.input, cached_input: p.cached, output: p.output };
  try {
    return app.session.call('cache_summary', { prices: typed });
  } catch {
    return app.session.call('cache_summary');  // prices the engine refuses (e.g. 1e-7): no cost
  }
}

/**
 * The session's request count — distinct ids, as the Requests view and cache_summary count them
 * (a retry is not a new request) — and the requests that are not bars.
 */
export function liveCounts(series) {
  const ids = [...new Set(app.requests.map((r) => r.id))];
  const drawn = new Set(series.map((s) => s.label));
  const compaction = new Set(app.requests.filter((r) => r.purpose === 'compact').map((r) => r.id));
  const noUsage = ids.filter((id) => !drawn.has(id) && !compaction.has(id)).length;
  return {
    total: ids.length,
    notDrawn: [[compaction.size, `${compaction.size === 1 ? 'compaction request' : 'compaction requests'} (costed below)`],
      [noUsage, 'without reported usage']],
  };
}

function render() {
  const { series, markers, output, compactions } = liveSeries();
  renderChart($('chart-live'), {
    series, markers, caption: 'This session: input tokens per turn request —', counts: liveCounts(series),
    onBar: (id) => app.emit('show-request', id),
  });
  const extra = compactions.length === 0 ? ''
    : ` Includes ${compactions.length} compaction request${compactions.length > 1 ? 's' : ''} (not drawn).`;
  const all = [...series, ...compactions];
  showRule($('cost-rule-live'), pricingRule(all, app.config?.provider === 'anthropic' ? 'anthropic' : 'openai'));
  $('cost-live').textContent = costText(all, prices(), output) + extra;
  let summary;
  try {
    summary = summaryWithCost();
  } catch {
    return;
  }
  const breaks = Object.entries(summary.breaks);
  // Writes: predicted where the explainer predicts them, reported where the provider bills them.
  const writes = summary.reported_cache_write_tokens === undefined ? ''
    : ` · written: ${summary.predicted_cache_write_tokens === undefined ? '' : `predicted ${fmt(summary.predicted_cache_write_tokens)}, `}` +
      `reported ${fmt(summary.reported_cache_write_tokens)}`;
  const cost = summary.cost;
  const diag = summary.provider_diagnostics;
  $('cache-summary').replaceChildren(
    el('h3', {}, 'Explainer totals (cache_summary)'),
    facts([
      ['requests', fmt(summary.requests)],
      ['prompt reuse', `${pct(summary.reuse_bp)} of all prompt bytes (best possible ${pct(summary.max_reuse_bp)})`],
      ['cached tokens', `predicted ${fmt(summary.predicted_cached_tokens)} · ideal ${fmt(summary.ideal_cached_tokens)} · reported ${fmt(summary.reported_cached_tokens)}${writes}`],
      ['breaks', breaks.length === 0 ? 'none' : breaks.map(([reason, b]) => `${reason} × ${b.count} (${fmt(b.lost_tokens)} tokens lost)`).join('; ')],
      ...(diag === undefined ? [] : [['provider verdicts (cache_diagnosis)',
        `${fmt(diag.compared)} compared: ${fmt(diag.agrees)} agree, ${fmt(diag.differs)} differ, ${fmt(diag.unavailable)} unavailable` +
        (diag.agreement_bp === null ? '' : ` (agreement ${pct(diag.agreement_bp)})`)]]),
      ...(cost === undefined ? [] : [['cost (engine)',
        `${cost.pricing} pricing${cost.pricing === 'openai' && cost.prices_per_million_usd.cache_write !== undefined
          ? ` (cache writes at $${cost.prices_per_million_usd.cache_write} per million)` : ''}: ` +
        `input predicted $${cost.predicted_input_usd.toFixed(4)}, reported $${cost.reported.input_usd.toFixed(4)}; ` +
        `with output $${cost.reported.total_usd.toFixed(4)}`]]),
    ]));
  $('provider-side').replaceChildren(...providerSide());
  $('cache-summary').dataset.pricing = cost?.pricing ?? '';
}

const describeBreakpoint = (b) => (b.placed
  ? `${b.at} ✓ ${[b.ttl, `at ${fmt(b.prefix_tokens)} tokens`].filter(Boolean).join(' ')}`
  : `${b.at} ✗ ${b.reason}`);

/**
 * What the provider side did and will do: the next request's breakpoint plan (`inspect
 * {"format":"breakpoints"}`, sessions with planned marks), the prewarm requests and what they
 * wrote, and the last cold-cache estimate (the requests themselves are in the Requests view).
 */
function providerSide() {
  const rows = [];
  const planned = app.requests.some((r) => Array.isArray(r.report?.breakpoints)) || app.provider() === 'anthropic';
  if (planned) {
    let plan = null;
    try {
      plan = app.session.call('inspect', { format: 'breakpoints' });
    } catch {
      plan = null;  // a provider without a plan
    }
    if (Array.isArray(plan?.breakpoints)) {
      rows.push(['next request\'s breakpoints', el('span', { dataset: { facts: 'next-breakpoints' } },
        plan.breakpoints.map(describeBreakpoint).join(' · ') +
        (plan.min_cacheable_tokens === undefined ? '' : ` (minimum cacheable prefix ${fmt(plan.min_cacheable_tokens)} tokens)`))]);
    }
  }
  const prewarms = app.requests.filter((r) => r.purpose === 'prewarm');
  const written = prewarms.reduce((a, r) => a + (r.usage?.cache_creation_tokens ?? 0), 0);
  rows.push(['prewarm', el('span', { dataset: { facts: 'prewarm-count', count: String(prewarms.length) } }, prewarms.length === 0
    ? 'none yet (with prewarm "auto", a cold cache is written by a prewarm request before the turn request)'
    : `${prewarms.length} prewarm request${prewarms.length > 1 ? 's' : ''} (${prewarms.map((r) => r.id).join(', ')}), ${fmt(written)} tokens written`)]);
  const cold = app.requests.findLast((r) => r.cold)?.cold;
  if (cold) {
    rows.push(['last cold cache', `idle ${fmt(Math.round(cold.idle_ms / 1000))} s past the ${fmt(Math.round(cold.cache_ttl_ms / 1000))} s TTL: ` +
      `$${cold.cost_usd.toFixed(4)} cold vs $${cold.warm_cost_usd.toFixed(4)} warm${cold.prewarm ? ', prewarmed' : ''}`]);
  }
  return [el('h3', {}, 'Provider side'), facts(rows)];
}

export function init(appState) {
  app = appState;
  for (const id of ['price-input', 'price-cached', 'price-output']) $(id).addEventListener('input', () => app.emit('prices'));
  app.on('usage', render);
  app.on('turn', render);
  app.on('reset', render);
  app.on('prices', render);
}
