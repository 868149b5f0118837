// SPDX-License-Identifier: MIT
// Rollout export and import. Export downloads the session's persisted lines as JSONL (each line
// + LF) — engine output only, so an API key can never be in it. Import reads an
// agentctx or Codex rollout and shows `rollout.inspect` (docs/replay.md): the requests it
// implies, every uncached token by cause (replay_view.js), the cost of each request counted once
// at the page's prices, and a diff of any request against its predecessor.
import { costText, pricingRule } from './chart.js';
import { prices, showRule } from './cache_view.js';
import { causeTable, drawnRequests, renderReplayChart, requestDiff } from './replay_view.js';
import { selectTab } from './tabs.js';
import { $, el, facts, fmt, pct } from './util.js';

let app;
let imported = null; // {name, report, table, dump}

function exportRollout() {
  const text = app.rollout.map((line) => `${line}\n`).join('');
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const link = el('a', { href: url, download: `${app.config.session_id}.jsonl`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * One cost row per request with usage, each counted once (the engine deduplicated them), priced
 * by the replay's rule (summary.pricing: Anthropic's, else OpenAI's) with the cache writes the
 * rows carry, as the live view does.
 */
function usageRows(report) {
  const rule = report.summary.pricing === 'anthropic' ? 'anthropic' : 'openai';
  return report.requests.filter((r) => r.input_tokens !== null)
    .map((r) => ({
      label: r.request_id, input: r.input_tokens, cached: r.cached_input_tokens ?? 0, write: r.cache_write_input_tokens, write_1h: r.cache_write_1h_input_tokens, rule,
    }));
}

function renderDiff() {
  if (imported === null) return;
  const i = Number($('replay-request').value);
  if (!Number.isInteger(i) || imported.dump.requests[i] === undefined) return;
  $('replay-diff').replaceChildren(requestDiff(imported.report, imported.dump, i));
}

function render() {
  if (imported === null) return;
  const { name, report, table, dump } = imported;
  const s = report.summary;
  $('replay-empty').hidden = true;
  $('replay').hidden = false;
  $('replay-title').textContent = `Replay of ${name}`;
  renderReplayChart($('chart-replay'), report, showReplayRequest);
  const onlyUsage = s.usage_only_requests;
  const rows = usageRows(report);
  showRule($('cost-rule-replay'), pricingRule(rows, s.pricing ?? 'openai'));
  $('cost-replay').textContent = costText(rows, prices(), s.output_tokens) + (onlyUsage === 0 ? ''
    : ` Includes ${onlyUsage} usage-only request${onlyUsage > 1 ? 's' : ''} (not drawn: compaction requests or responses without recorded output).`);
  $('replay-causes').replaceWith(causeTable(report, prices()));
  const breaks = Object.entries(s.breaks);
  const total = s.rollout_total_token_usage;
  $('replay-summary').replaceChildren(facts([
    ['session', report.session_id ?? '(unknown)'],
    ['CLI version', report.cli_version ?? '(not recorded)'],
    ['lines', fmt(report.lines)],
    ['requests', `${fmt(s.requests)} reconstructed, ${fmt(drawnRequests(report).length)} with reported usage` +
      (onlyUsage ? ` (${fmt(onlyUsage)} usage-only)` : '') + `; ${fmt(s.repeated_usage_lines)} repeated usage lines counted once`],
    ['reported cached', rows.length === 0 ? 'no usage recorded (the rollout has no token counts)'
      : `${fmt(s.cached_input_tokens)} of ${fmt(s.input_tokens)} input tokens (${pct(s.reported_cached_bp)})`],
    ...(s.cache_write_input_tokens === undefined ? [] : [['cache writes',
      `${fmt(s.cache_write_input_tokens)} input tokens written (${s.pricing === 'anthropic' ? 'Anthropic' : 'OpenAI'} pricing)`]]),
    ['uncached', rows.length === 0 ? 'unknown without usage'
      : `${fmt(s.uncached_input_tokens)} = ${fmt(s.new_input_tokens)} new + ${fmt(s.lost_tokens)} lost`],
    ['rollout total', total === null ? '(not recorded)' : s.usage_matches_rollout_total ? 'matches the sum of the requests'
      : `differs: ${fmt(total.input_tokens)} input, ${fmt(total.cached_input_tokens)} cached`],
    ['prefix reuse', `${pct(s.reuse_bp)} (best possible ${pct(s.max_reuse_bp)}; tools are not in rollouts)`],
    ['compactions', fmt(s.compactions)],
    ['client-side breaks', breaks.length === 0 ? 'none' : breaks.map(([reason, b]) => `${reason} × ${b.count}`).join('; ')],
    ...(report.warnings.length ? [['warnings', report.warnings.map((w) => `${w.code}: ${w.message}`).join('\n')]] : []),
  ]));
  $('replay-request').replaceChildren(...dump.requests.map((r, i) => {
    const row = report.requests.find((q) => q.request_id === r.request_id);
    const lost = row?.lost_tokens ? ` · ${fmt(row.lost_tokens)} lost (${row.cause})` : '';
    return el('option', { value: String(i) }, `${r.request_id} · line ${row?.line ?? '?'}${lost}`);
  }));
  // Start on the request that lost the most.
  let worst = 0;
  dump.requests.forEach((r, i) => {
    const lost = (id) => report.requests.find((q) => q.request_id === id)?.lost_tokens ?? 0;
    if (lost(r.request_id) > lost(dump.requests[worst].request_id)) worst = i;
  });
  $('replay-request').value = String(worst);
  renderDiff();
  $('replay-table').textContent = table;
}

/** Shows what changed in request `id` (a bar of the replay chart) against the one before it. */
function showReplayRequest(id) {
  const i = imported?.dump.requests.findIndex((r) => r.request_id === id) ?? -1;
  if (i < 0) return;
  $('replay-request').value = String(i);
  renderDiff();
  $('replay-request').scrollIntoView({ block: 'nearest' });
}

async function importRollout(file) {
  const text = await file.text();
  try {
    const { report, table, dump } = app.engine.call('rollout.inspect', { text, dump_requests: true });
    imported = { name: file.name, report, table, dump };
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
  $('replay-request').addEventListener('change', renderDiff);
  app.on('rollout', () => { $('export-rollout').title = `${app.rollout.length} lines`; });
}
