// SPDX-License-Identifier: MIT
// Settings panel: each control becomes one `update` call with a merge-patch delta (docs/config.md),
// e.g. {"cwd": …} (shorthand), {"sandbox":{"mode":…}}, {"tools":[…]} (arrays replace whole).
// The engine validates the whole config; a rejected delta changes nothing and the form is
// reset from the current config. Changes take effect at the next step. The choices of the enum
// selects come from the package (ENUM_VALUES, generated from the protocol description).
import { ENUM_VALUES } from 'agentctx';
import { $ } from './util.js';

let app;
let form;

const optionalInt = (value) => {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n > 0 ? n : null;
};

/** The delta for one changed control. */
function deltaFor(name) {
  const f = form.elements;
  switch (name) {
    case 'cwd': return { cwd: f.cwd.value.trim() };
    case 'trust': return { trust: f.trust.value };
    case 'sandbox': return { sandbox: { mode: f.sandbox.value } };
    case 'approval': return { approval_policy: f.approval.value };
    case 'model': return { model: { slug: f.model.value.trim() } };
    case 'context_window': return { model: { context_window: optionalInt(f.context_window.value) } };
    case 'auto_compact': return { model: { auto_compact_token_limit: optionalInt(f.auto_compact.value) } };
    case 'refresh': return { agents_md: { refresh: f.refresh.value } };
    case 'provider': return { provider: f.provider.value };
    case 'prewarm': return { prewarm: f.prewarm.value };
    case 'builtin_tools': return { builtin_tools: f.builtin_tools.checked };
    case 'mcp': return { tools: f.mcp.checked ? app.tracker.tools() : [] };
    // native: the in-page mock has the channel when the config turns it on (docs/tool-changes.md)
    case 'tool_policy': return f.tool_policy.value === 'native'
      ? { tool_policy: 'native', provider_features: { tool_changes: true } } : { tool_policy: f.tool_policy.value };
    // inband / server: the provider compacts (docs/compaction-timing.md); local where it cannot
    case 'compaction': return ['inband', 'server'].includes(f.compaction.value)
      ? { compaction: { strategy: f.compaction.value }, provider_features: { inband_compaction: true } }
      : { compaction: { strategy: f.compaction.value } };
    default: return null;
  }
}

const describe = (delta) => JSON.stringify(delta).replace(/"description":"[^"]*"/g, '"description":"…"');

/** Fills the form from app.config. */
function fill() {
  const c = app.config;
  if (!c) return;
  const f = form.elements;
  f.cwd.value = c.environments[0].cwd;
  f.trust.value = c.trust ?? 'trusted';
  f.sandbox.value = c.sandbox?.mode ?? 'workspace-write';
  f.approval.value = c.approval_policy ?? 'on-request';
  f.model.value = c.model.slug;
  f.context_window.value = c.model.context_window ?? '';
  f.auto_compact.value = c.model.auto_compact_token_limit ?? '';
  f.refresh.value = c.agents_md?.refresh ?? 'selection';
  f.provider.value = c.provider ?? 'responses';
  f.prewarm.value = c.prewarm ?? 'off';
  f.builtin_tools.checked = c.builtin_tools !== false;
  f.mcp.checked = (c.tools ?? []).some((t) => t.server === 'tracker');
  f.tool_policy.value = c.tool_policy ?? 'apply';
  f.compaction.value = c.compaction?.strategy ?? 'local';
}

/** Each enum select offers exactly the engine's values. */
function fillChoices() {
  const choices = { sandbox: ENUM_VALUES.SandboxMode, approval: ENUM_VALUES.ApprovalPolicy, trust: ENUM_VALUES.Trust, compaction: ENUM_VALUES.CompactionStrategy,
    prewarm: ENUM_VALUES.PrewarmMode };
  for (const [name, values] of Object.entries(choices)) {
    form.elements[name].replaceChildren(...values.map((v) => new Option(v, v)));
  }
}

export function init(appState) {
  app = appState;
  form = $('settings');
  fillChoices();
  form.addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('change', (e) => {
    const delta = deltaFor(e.target.name);
    if (delta === null) return;
    if (app.update(delta)) {
      $('settings-note').textContent = `update ${describe(delta)} — applies at the next step.`;
    } else {
      $('settings-note').textContent = 'Rejected by the engine; nothing changed.';
      fill();
    }
  });
  app.on('config', fill);
}
