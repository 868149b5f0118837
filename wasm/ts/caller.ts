// SPDX-License-Identifier: MIT
// createCaller: the typed call surface (Caller, types.ts) over any raw transport of one engine
// handle — the Embind module (engine.ts) or a host adapter such as the WASI CLI's guest.
// Invariants:
//  1. call(method, input) serialises `input` with its Uint8Arrays as input attachments
//     (attachments.ts), unwraps the envelope (error envelopes throw AgentctxError) and resolves
//     output attachments by copying each once out of the transport, before anything else runs.
//  2. callRaw() returns the envelope text untouched; attachment(i) reads the last call's bytes.
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
      const { json, inputs } = encodeInput(input);
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
