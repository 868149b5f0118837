// SPDX-License-Identifier: MIT
// The text forms of `agentctx inspect --format breakpoints|agents` (--json prints the values
// themselves). Invariant: every string the engine or a file supplied passes terminalLine, so no
// control character reaches the terminal.
import { terminalLine } from './terminal_text.js';

export interface BreakpointsInspect {
  provider: string;
  min_cacheable_tokens: number;
  breakpoints: { at: string; placed: boolean; reason: string; ttl?: string; prefix_tokens: number; message_index?: number }[];
}

export function renderBreakpoints(v: BreakpointsInspect): string {
  const lines = [`provider ${v.provider}; cacheable minimum ${v.min_cacheable_tokens} tokens`];
  for (const b of v.breakpoints) {
    const where = b.message_index === undefined ? b.at : `${b.at} (message ${b.message_index})`;
    lines.push(`${b.placed ? 'mark' : 'skip'} ${where}: ${b.reason}${b.ttl ? `, ttl ${b.ttl}` : ''}, ${b.prefix_tokens} tokens before it`);
  }
  return lines.join('\n') + '\n';
}

export interface AgentsInspect {
  text?: string | null;
  fragment?: string | null;
  sources?: { path: string; environment_id: string; cwd: string; global: boolean; kind?: string; imported_from?: string }[];
  warnings?: { code: string; message: string }[];
}

export function renderAgents(v: AgentsInspect): string {
  const lines: string[] = ['Sources:'];
  for (const s of v.sources ?? []) {
    const kind = s.kind === 'local' ? 'local overlay, ' : s.kind === 'import' ? `imported from ${s.imported_from ?? '?'}, ` : '';
    lines.push(`  ${s.path}${s.global ? ' (global)' : ` (${kind}environment ${s.environment_id}, cwd ${s.cwd})`}`);
  }
  if ((v.sources ?? []).length === 0) lines.push('  (none)');
  lines.push('Warnings:');
  for (const w of v.warnings ?? []) lines.push(`  ${w.code}: ${terminalLine(w.message)}`);
  if ((v.warnings ?? []).length === 0) lines.push('  (none)');
  lines.push('Text:');
  lines.push(v.text ?? '(no AGENTS.md instructions)');
  return lines.join('\n') + '\n';
}
