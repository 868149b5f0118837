// SPDX-License-Identifier: MIT
// Keeping the API key out of what a CLI session shows. The HTTP client already redacts the texts
// it builds from HTTP answers; the engine then decodes JSON error bodies into messages, so the
// final texts — every effect and host record the output prints, each error line, and the
// message of an error thrown out of a command — are redacted once more here, plain and
// JSON-escaped spellings alike (redactSecret of the package).
// Invariants: without a key nothing is copied (noRedaction is the identity and outputs are used
// as they are); bytes (request bodies for --dump-requests) are never altered.
import type { EffectOutput } from './driver.js';

/** Replaces the API key (plain or JSON-escaped) in a text; the identity without a key. */
export type Redact = (text: string) => string;
export const noRedaction: Redact = (text) => text;

/** `value` with `redact` applied to every string in it (bytes are left alone). */
function redactDeep<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, redact)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactDeep(v, redact);
  return out as T;
}

/** An output that shows `inner` every effect and record with the key redacted. */
export function redactingOutput(inner: EffectOutput, redact: Redact): EffectOutput {
  if (redact === noRedaction) return inner;
  return {
    effect: (e) => inner.effect(redactDeep(e, redact)),
    host: (record) => inner.host(redactDeep(record, redact)),
  };
}

/** Runs `body`; a thrown error leaves with its message redacted (cli.ts prints it). */
export async function redactingErrors<T>(redact: Redact, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof Error) e.message = redact(e.message);
    throw e;
  }
}
