// SPDX-License-Identifier: MIT
// Showing a session: human-readable (assistant text streamed on stdout, progress on stderr) or
// `--json` (one JSON object per line on stdout).
// Invariants:
//  - Human mode: stdout carries only the assistant's text; every progress, warning and error
//    line goes to stderr. On a terminal (`stream`) the text streams from `text_delta`; a retry
//    after partial text ends that line and says on stderr that it was discarded. Otherwise
//    (pipes, files) each assistant message is written once it is committed (`item_done`), so a
//    failed attempt never leaves text behind.
//  - JSON mode: every effect as the engine returned it, one per line, except `persist` (those
//    lines are in the rollout) and `model_request`, whose `body` is replaced by `body_bytes`
//    (use --dump-requests for bodies); host records are `{"type":"host","event":{…}}`.
//  - Neither mode ever prints a request header (the API key lives only there).
import type { Effect, EffectOutput, HostRecord } from './driver.js';

export interface Writer {
  write(text: string): unknown;
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ');
}

/** `--json`: JSON lines on `out`. */
export class JsonOutput implements EffectOutput {
  readonly #out: Writer;
  constructor(out: Writer) {
    this.#out = out;
  }
  effect(effect: Effect): void {
    if (effect.type === 'persist') return;
    if (effect.type === 'model_request') {
      const { body, ...rest } = effect;
      this.#out.write(JSON.stringify({ ...rest, body_bytes: body.length }) + '\n');
      return;
    }
    this.#out.write(JSON.stringify(effect) + '\n');
  }
  host(record: HostRecord): void {
    this.#out.write(JSON.stringify({ type: 'host', event: record }) + '\n');
  }
}

/** The terminal: text on `out`, progress on `err`. */
export class HumanOutput implements EffectOutput {
  readonly #out: Writer;
  readonly #err: Writer;
  readonly #stream: boolean;
  /** Whether the last thing written to `out` ended a line. */
  #atLineStart = true;
  /** Whether this turn wrote any text. */
  #wroteText = false;
  /** Whether the current request streamed text (discarded if it is retried). */
  #streamedThisRequest = false;

  constructor(out: Writer, err: Writer, options: { stream?: boolean } = {}) {
    this.#out = out;
    this.#err = err;
    this.#stream = options.stream === true;
  }

  #text(s: string): void {
    if (s === '') return;
    this.#out.write(s);
    this.#atLineStart = s.endsWith('\n');
    this.#wroteText = true;
  }

  #note(s: string): void {
    if (!this.#atLineStart) {
      this.#out.write('\n');
      this.#atLineStart = true;
    }
    this.#err.write(oneLine(s) + '\n');
  }

  effect(effect: Effect): void {
    switch (effect.type) {
      case 'event':
        this.#event(effect.event as unknown as { type: string; [key: string]: unknown });
        break;
      case 'error':
        this.#note(`agentctx: ${effect.code}: ${effect.message}${effect.retryable ? ' (retryable)' : ''}`);
        break;
      case 'tool_call':
        this.#note(effect.server !== undefined
          ? `• ${effect.name} runs on MCP server ${effect.server}, outside the sandbox`
          : `• host tool ${effect.name} (not available in the CLI)`);
        break;
      case 'model_request':
        this.#streamedThisRequest = false;
        break;
      case 'turn_complete':
        if (!this.#wroteText && effect.last_agent_message !== undefined) this.#text(effect.last_agent_message);
        if (!this.#atLineStart) this.#text('\n');
        this.#wroteText = false;
        if (effect.reason !== 'completed') this.#note(`agentctx: turn ${effect.turn_id} ${effect.reason}`);
        break;
      default:
        break;
    }
  }

  #event(event: { type: string; [key: string]: unknown }): void {
    switch (event.type) {
      case 'text_delta':
        if (this.#stream) {
          this.#text(String(event['delta'] ?? ''));
          this.#streamedThisRequest = true;
        }
        break;
      case 'item_done': {
        const item = event['item'] as {
          type?: string; role?: string; name?: string; arguments?: string;
          summary?: { text?: string }[]; content?: { type?: string; text?: string }[];
        } | undefined;
        if (!this.#stream && item?.type === 'message' && item.role === 'assistant' && Array.isArray(item.content)) {
          const text = item.content.filter((c) => c.type === 'output_text').map((c) => c.text ?? '').join('');
          if (!this.#atLineStart) this.#text('\n');
          this.#text(text);
        } else if (item?.type === 'function_call') {
          this.#note(`• ${item.name ?? '?'} ${oneLine(item.arguments ?? '')}`);
        } else if (item?.type === 'reasoning' && Array.isArray(item.summary)) {
          const text = item.summary.map((s) => s.text ?? '').join(' ').trim();
          if (text !== '') this.#note(`• ${text}`);
        }
        break;
      }
      case 'warning':
        this.#note(`agentctx: warning: ${String(event['code'])}: ${String(event['message'])}`);
        break;
      case 'cache_cold': {
        // Before the first request of a resumed session (or a turn after an idle gap).
        const minutes = Math.floor(Number(event['idle_ms']) / 60000);
        const ttl = Math.floor(Number(event['cache_ttl_ms']) / 60000);
        this.#note(`agentctx: warning: cache_cold: idle ${minutes} min (cache TTL ${ttl} min); the next request ` +
          `(~${String(event['prompt_tokens'])} prompt tokens) costs ~$${String(event['cost_usd'])} cold, ` +
          `$${String(event['warm_cost_usd'])} warm${event['prewarm'] === true ? '; prewarming first' : ''}`);
        break;
      }
      case 'compaction':
        if (event['phase'] === 'completed') {
          this.#note(`• compacted (${String(event['trigger'])}): ${String(event['tokens_before'])} -> ${String(event['tokens_after'])} tokens`);
        }
        break;
      default:
        break;
    }
  }

  host(record: HostRecord): void {
    switch (record.type) {
      case 'retry':
        if (this.#streamedThisRequest) {
          this.#note('agentctx: (the partial reply above is discarded)');
          this.#streamedThisRequest = false;
        }
        this.#note(`agentctx: retrying ${String(record['request_id'])} in ${String(record['delay_ms'])} ms ` +
          `(attempt ${String(record['attempt'])} of ${String(record['of'])})`);
        break;
      case 'gave_up':
        this.#note(record['request_id'] === undefined
          ? `agentctx: ${String(record['code'])} cannot be retried (no request id): ending the turn`
          : `agentctx: giving up on ${String(record['request_id'])} after ${String(record['attempts'])} attempts`);
        break;
      case 'session':
        if (record['rollout'] !== undefined) this.#note(`agentctx: session ${String(record['session_id'])}, rollout ${String(record['rollout'])}`);
        break;
      default:
        if (record['message'] !== undefined) this.#note(`agentctx: ${String(record['message'])}`);
        break;
    }
  }
}
