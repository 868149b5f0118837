// SPDX-License-Identifier: MIT
// "Cache & cost" view: cached vs uncached input tokens of every request as reported in
// token_usage (the mock's prompt-cache simulator, or the real API), compaction markers, a running
// cost estimate with editable per-million prices (example defaults), and the session's
// cache_summary (the explainer's totals and breaks by reason).
import { costText, renderChart } from './chart.js';
import { $, el, facts, fmt, pct } from './util.js';

let app;

/** The per-million prices typed in the view (shared with the replay view). */
export function prices() {
  const read = (id) => Math.max(0, Number($(id).value) || 0);
  return { input: read('price-input'), cached: read('price-cached'), output: read('price-output') };
}

/** The live series: one bar per request with reported usage. */
export function liveSeries() {
  const series = app.usage.map((u) => ({ label: u.request_id, input: u.input_tokens, cached: u.cached_tokens }));
  const markers = app.usage.flatMap((u, i) => (u.compactionBefore ? [i] : []));
  const output = [...app.usage, ...app.compactionUsage].reduce((a, u) => a + u.output_tokens, 0);
  const compactions = app.compactionUsage.map((u) => ({ label: u.request_id, input: u.input_tokens, cached: u.cached_tokens }));
  return { series, markers, output, compactions };
}

function render() {
  const { series, markers, output, compactions } = liveSeries();
  renderChart($('chart-live'), { series, markers, caption: 'This session: input tokens per turn request —' });
  const extra = compactions.length === 0 ? ''
    : ` Includes ${compactions.length} compaction request${compactions.length > 1 ? 's' : ''} (not drawn).`;
  $('cost-live').textContent = costText([...series, ...compactions], prices(), output) + extra;
  let summary;
  try {
    summary = app.session.call('cache_summary');
  } catch {
    return;
  }
  const breaks = Object.entries(summary.breaks);
  $('cache-summary').replaceChildren(
    el('h3', {}, 'Explainer totals (cache_summary)'),
    facts([
      ['requests', fmt(summary.requests)],
      ['prompt reuse', `${pct(summary.reuse_bp)} of all prompt bytes (best possible ${pct(summary.max_reuse_bp)})`],
      ['cached tokens', `predicted ${fmt(summary.predicted_cached_tokens)} · ideal ${fmt(summary.ideal_cached_tokens)} · reported ${fmt(summary.reported_cached_tokens)}`],
      ['breaks', breaks.length === 0 ? 'none' : breaks.map(([reason, b]) => `${reason} × ${b.count} (${fmt(b.lost_tokens)} tokens lost)`).join('; ')],
    ]));
}

export function init(appState) {
  app = appState;
  for (const id of ['price-input', 'price-cached', 'price-output']) $(id).addEventListener('input', () => app.emit('prices'));
  app.on('usage', render);
  app.on('turn', render);
  app.on('reset', render);
  app.on('prices', render);
}
