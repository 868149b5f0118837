// SPDX-License-Identifier: MIT
// Attachments on the JS side of the boundary (docs/boundary.md, agentctx/engine.h): large bytes
// cross beside the JSON, never escaped into it.
//  - In: encodeInput() serialises a method input; each Uint8Array anywhere in it becomes
//    {"$bytes": i} and is handed to the transport as input attachment i. Other bytes — an
//    ArrayBuffer (`await res.arrayBuffer()`), a SharedArrayBuffer, a DataView or any typed
//    array — are the same bytes as a Uint8Array over their memory (no copy): JSON would write
//    them as `{}` or as an object of numbered keys, which the engine would refuse or misread.
//  - Out: resolveAttachments() replaces each {"$bytes": i, "length": n} of a parsed value by a
//    copy of attachment i (a Uint8Array, copied once out of the module's memory) and defines,
//    beside it, a lazy non-enumerable `<key>Text` getter that decodes the bytes as UTF-8 on
//    first use (so `effect.body` is bytes for fetch, `effect.bodyText` the text).
// Invariants: nothing else in a value changes; attachment indices are checked against the
// transport's count (a bad index is `internal`: the engine never makes one).
import { AgentctxError } from './errors.js';

/** Raw bytes of a call: output attachment `index` (copied), and how many there are. */
export interface AttachmentSource {
  readonly count: number;
  get(index: number): Uint8Array;
}

const decoder = new TextDecoder();

/**
 * `value` as a Uint8Array when it is bytes: itself when it is one, else a view over the same
 * memory of an ArrayBuffer (or a SharedArrayBuffer, from any realm) or an ArrayBufferView;
 * undefined for anything else.
 */
export function asBytes(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  const tag = Object.prototype.toString.call(value);
  if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return new Uint8Array(value as ArrayBufferLike);
  return undefined;
}

// `value` with all bytes (asBytes) replaced by {"$bytes": i} (pushed to `inputs`), copying only
// the arrays and plain objects on the way. Done before JSON.stringify, which would call a
// Buffer's toJSON first: a 200 MB Buffer became an array of 200 million numbers.
// Objects with their own toJSON (Date, …) are left to JSON.stringify.
function replaceBytes(value: unknown, inputs: Uint8Array[]): unknown {
  const bytes = asBytes(value);
  if (bytes !== undefined) {
    inputs.push(bytes);
    return { $bytes: inputs.length - 1 };
  }
  if (Array.isArray(value)) return value.map((v) => replaceBytes(v, inputs));
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = replaceBytes(v, inputs);
  return out;
}

/** The JSON of `input` (undefined -> {}) with all bytes (asBytes) replaced by references. */
export function encodeInput(input: unknown): { json: string; inputs: Uint8Array[] } {
  if (input === undefined) return { json: '{}', inputs: [] };
  const inputs: Uint8Array[] = [];
  let json: string | undefined;
  try {
    json = JSON.stringify(replaceBytes(input, inputs));
  } catch (cause) {
    throw new AgentctxError('invalid_input', 'the input cannot be serialised as JSON', undefined, { cause });
  }
  if (json === undefined) throw new AgentctxError('invalid_input', 'the input cannot be serialised as JSON');
  return { json, inputs };
}

function isRef(value: unknown): value is { $bytes: number; length: number } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 2 && keys[0] === '$bytes' && keys[1] === 'length' &&
    typeof (value as Record<string, unknown>)['$bytes'] === 'number';
}

/** Defines the lazy `<key>Text` accessor for the bytes at `holder[key]`. */
function defineText(holder: Record<string, unknown>, key: string): void {
  let text: string | undefined;
  Object.defineProperty(holder, `${key}Text`, {
    enumerable: false,
    configurable: true,
    get(): string {
      if (text === undefined) text = decoder.decode(holder[key] as Uint8Array);
      return text;
    },
  });
}

/** Resolves every output reference inside `value` (in place) against `source`. */
export function resolveAttachments<T>(value: T, source: AttachmentSource): T {
  if (source.count === 0) return value;
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (isRef(child)) {
        const index = child.$bytes;
        if (!Number.isInteger(index) || index < 0 || index >= source.count) {
          throw new AgentctxError('internal', `the engine named attachment ${index} of ${source.count}`);
        }
        record[key] = source.get(index);
        defineText(record, key);
      } else {
        visit(child);
      }
    }
  };
  visit(value);
  return value;
}

/** The UTF-8 text of bytes or a string (for fields that may be either). */
export function bytesText(value: string | Uint8Array): string {
  return typeof value === 'string' ? value : decoder.decode(value);
}
