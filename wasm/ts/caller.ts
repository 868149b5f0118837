// SPDX-License-Identifier: MIT
// createCaller: the typed call surface (Caller, types.ts) over any raw transport of one engine
// handle — the Embind module (engine.ts) or a host adapter such as the WASI CLI's guest.
// Invariants:
//  1. call(method, input) serialises `input` with its Uint8Arrays as input attachments
//     (attachments.ts), unwraps the envelope (error envelopes throw AgentctxError) and resolves
//     output attachments by copying each once out of the transport, before anything else runs.
//  2. callRaw() returns the envelope text untouched; attachment(i) reads the last call's bytes.
//  3. call() refuses what JSON would silently change: a `now_ms` that is NaN or ±Infinity (JSON
//     writes null, which the engine would take as 0: 1970 in the rollout) is `invalid_input`,
//     like a negative one. Bytes in any form — a Uint8Array, an ArrayBuffer (e.g. a delivery's
//     `sse` from `await res.arrayBuffer()`), a DataView or another typed array — cross as an
//     attachment (attachments.ts); anything else that is not the field's type (a number, an
//     object) reaches the engine, which refuses it with `invalid_input` naming the field.
import { encodeInput, resolveAttachments, type AttachmentSource } from './attachments.js';
import { AgentctxError, unwrapEnvelope } from './errors.js';
import type { Caller } from './types.js';

/** One engine handle as raw calls: what a host adapter implements. */
export interface RawTransport {
  /** One call; `inputs[i]` is named `{"$bytes": i}` in `json`. Returns the envelope text. */
  call(method: string, json: string, inputs: readonly Uint8Array[]): string;
  /** How many output attachments the last call has. */
  attachmentCount(): number;
  /** A copy of output attachment `index` of the last call. */
  attachment(index: number): Uint8Array;
}

// `input` checked and normalised as invariant 3 says.
function prepareInput(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const record = input as Record<string, unknown>;
  const now = record['now_ms'];
  if (typeof now === 'number' && !Number.isFinite(now)) {
    throw new AgentctxError('invalid_input', `now_ms must be a non-negative integer (got ${now})`);
  }
  return input;
}

/** The Caller (call / callJson / callRaw / attachment) over `transport`. */
export function createCaller<Methods>(transport: RawTransport): Caller<Methods> {
  const source = (): AttachmentSource => ({
    count: transport.attachmentCount(),
    get: (index: number) => transport.attachment(index),
  });
  const value = (method: string, json: string, inputs: readonly Uint8Array[]): unknown =>
    resolveAttachments(unwrapEnvelope(transport.call(method, json, inputs)), source());
  return {
    // `any`: one implementation serves both overloads of Caller.call.
    call(method: string, input?: unknown): any {
      const { json, inputs } = encodeInput(prepareInput(input));
      return value(method, json, inputs);
    },
    callJson<T>(method: string, json: string, inputs: readonly Uint8Array[] = []): T {
      return value(method, json, inputs) as T;
    },
    callRaw(method: string, json: string, inputs: readonly Uint8Array[] = []): string {
      return transport.call(method, json, inputs);
    },
    attachment(index: number): Uint8Array {
      const count = transport.attachmentCount();
      if (!Number.isInteger(index) || index < 0 || index >= count) {
        throw new AgentctxError('invalid_input', `the last call has no attachment ${index}`);
      }
      return transport.attachment(index);
    },
  } as Caller<Methods>;
}
