// SPDX-License-Identifier: MIT
// Rollout export and import. Export downloads the session's persisted lines as JSONL (each line
// + LF, SPEC §13.1) — engine output only, so an API key can never be in it. Import reads an
// agentctx or Codex rollout and shows `rollout.inspect` (SPEC §13.4): the requests it implies,
// their cache breaks, and the same cached/uncached chart as the live view.
import { costText, renderChart } from './chart.js';
import { prices } from './cache_view.js';
import { selectTab } from './tabs.js';
import { $, el, facts, fmt, parseJsonl, pct } from './util.js';

let app;
let imported = null; // {name, report, table, usage}

function exportRollout() {
  const text = app.rollout.map((line) => `${line}\n`).join('');
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const link = el('a', { href: url, download: `${app.config.session_id}.jsonl`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Every token_count line's usage (turn and compaction requests alike), for the cost estimate. */
function usageLines(text) {
  const usage = [];
  let output = 0;
  for (const line of parseJsonl(text)) {
    const u = line?.payload?.type === 'token_count' ? line.payload.info?.last_token_usage : null;
    if (!u || typeof u.input_tokens !== 'number') continue;
    usage.push({ label: '', input: u.input_tokens, cached: u.cached_input_tokens ?? 0 });
    output += u.output_tokens ?? 0;
  }
  return { usage, output };
}

function render() {
  if (imported === null) return;
  const { name, report, table, usage } = imported;
  const withUsage = report.requests.filter((r) => r.input_tokens !== null);
  const series = withUsage.map((r) => ({ label: r.request_id, input: r.input_tokens, cached: r.cached_input_tokens ?? 0 }));
  const markers = withUsage.flatMap((r, i) => (r.break?.reason === 'history_rewritten_by_compaction' ? [i] : []));
  $('replay-empty').hidden = true;
  $('replay').hidden = false;
  $('replay-title').textContent = `Replay of ${name}`;
  renderChart($('chart-replay'), { series, markers, caption: 'Imported rollout: input tokens per turn request —' });
  $('cost-replay').textContent = costText(usage.usage, prices(), usage.output);
  const s = report.summary;
  const breaks = Object.entries(s.breaks);
  $('replay-summary').replaceChildren(facts([
    ['session', report.session_id ?? '(unknown)'],
    ['lines', fmt(report.lines)],
    ['requests', `${fmt(s.requests)} reconstructed, ${fmt(s.requests_with_usage)} with reported usage`],
    ['reported cached', `${fmt(s.cached_input_tokens)} of ${fmt(s.input_tokens)} input tokens (${pct(s.reported_cached_bp)})`],
    ['prefix reuse', `${pct(s.reuse_bp)} (best possible ${pct(s.max_reuse_bp)}; instructions and tools are not in rollouts)`],
    ['compactions', fmt(s.compactions)],
    ['breaks', breaks.length === 0 ? 'none' : breaks.map(([reason, b]) => `${reason} × ${b.count}`).join('; ')],
    ...(report.warnings.length ? [['warnings', report.warnings.map((w) => `${w.code}: ${w.message}`).join('\n')]] : []),
  ]));
  $('replay-table').textContent = table;
}

async function importRollout(file) {
  const text = await file.text();
  try {
    const { report, table } = app.engine.call('rollout.inspect', { text });
    imported = { name: file.name, report, table, usage: usageLines(text) };
    app.status('');
    render();
    selectTab('tab-replay');
  } catch (error) {
    app.status(error);
  }
}

export function init(appState) {
  app = appState;
  $('export-rollout').addEventListener('click', exportRollout);
  $('import-button').addEventListener('click', () => $('import-rollout').click());
  $('import-rollout').addEventListener('change', (e) => {
    const file = e.target.files?.[0];
    if (file) importRollout(file).finally(() => { e.target.value = ''; });
  });
  app.on('prices', render);
  app.on('rollout', () => { $('export-rollout').title = `${app.rollout.length} lines`; });
}
