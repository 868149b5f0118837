// SPDX-License-Identifier: MIT
// Showing a session: human-readable (assistant text streamed on stdout, progress on stderr) or
// `--json` (one JSON object per line on stdout).
// Invariants:
//  - Human mode: stdout carries only the assistant's text; every progress, warning and error
//    line goes to stderr. On a terminal (`stream`) the text streams from `text_delta`; a retry
//    after partial text ends that line and says on stderr that it was discarded. Otherwise
//    (pipes, files) each assistant message is written once it is committed (`item_done`), so a
//    failed attempt never leaves text behind.
//  - Nothing a server, an endpoint or the model sent reaches a terminal raw: every stderr line
//    is terminalLine()d, and streamed text (stdout is a terminal) terminalText()ed
//    (terminal_text.ts). Text written to a pipe or a file is the model's, byte for byte.
//  - JSON mode: every effect as the engine returned it, one per line, except `persist` (those
//    lines are in the rollout) and `model_request`, whose `body` is replaced by `body_bytes`
//    (use --dump-requests for bodies); host records are `{"type":"host","event":{…}}`. Lines
//    are terminalJson(): no raw control character, DEL or C1 (JSON escapes, the same values).
//  - Neither mode ever prints a request header (the API key lives only there).
//  - Human mode on a terminal: the reasoning summary of a response comes before its streamed
//    answer, as the model produced it (held from `reasoning_delta` until the answer starts);
//    with a StatusLine (status_line.ts), the line shows from each model request until the next
//    write and is erased before every write and at the turn's end.
import type { Effect, EffectOutput, HostRecord } from './driver.js';
import type { StatusLine } from './status_line.js';
import { terminalJson, terminalLine, terminalText } from './terminal_text.js';

export interface Writer {
  write(text: string): unknown;
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
      this.#out.write(terminalJson({ ...rest, body_bytes: body.length }) + '\n');
      return;
    }
    this.#out.write(terminalJson(effect) + '\n');
  }
  host(record: HostRecord): void {
    this.#out.write(terminalJson({ type: 'host', event: record }) + '\n');
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
  readonly #status: StatusLine | undefined;
  /** When the running turn's first request went out (the status line counts from it). */
  #turnStartedAt: number | undefined;
  /** Streamed reasoning summary not shown yet (a terminal shows it before the answer). */
  #reasoning = '';
  /** Reasoning items already shown from their deltas (their item_done is then skipped). */
  #reasoningShown = 0;

  constructor(out: Writer, err: Writer, options: { stream?: boolean; status?: StatusLine } = {}) {
    this.#out = out;
    this.#err = err;
    this.#stream = options.stream === true;
    this.#status = options.status;
  }

  #text(s: string): void {
    if (s === '') return;
    this.#status?.clear();
    this.#out.write(this.#stream ? terminalText(s) : s);
    this.#atLineStart = s.endsWith('\n');
    this.#wroteText = true;
  }

  #note(s: string): void {
    this.#status?.clear();
    if (!this.#atLineStart) {
      this.#out.write('\n');
      this.#atLineStart = true;
    }
    this.#err.write(terminalLine(s) + '\n');
  }

  /** The reasoning streamed so far, as one `• ` line, before the answer that follows it. */
  #showReasoning(): void {
    const text = this.#reasoning.replace(/\s+/g, ' ').trim();
    this.#reasoning = '';
    if (text === '') return;
    this.#note(`• ${text}`);
    this.#reasoningShown += 1;
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
        this.#reasoning = '';
        this.#reasoningShown = 0;
        this.#turnStartedAt ??= Date.now();
        // Never over a line of the reply still open (erasing it would erase the reply).
        if (this.#atLineStart) this.#status?.show(this.#turnStartedAt);
        break;
      case 'turn_complete':
        this.#status?.clear();
        this.#turnStartedAt = undefined;
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
      case 'reasoning_delta':
        if (this.#stream) this.#reasoning += String(event['delta'] ?? '');
        break;
      case 'text_delta':
        if (this.#stream) {
          this.#showReasoning();
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
          this.#note(`• ${item.name ?? '?'} ${item.arguments ?? ''}`);
        } else if (item?.type === 'reasoning' && Array.isArray(item.summary)) {
          this.#reasoning = '';
          if (this.#reasoningShown > 0) {
            this.#reasoningShown -= 1; // shown from its deltas, before the answer
            break;
          }
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
