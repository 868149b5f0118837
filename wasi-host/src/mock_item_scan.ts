// SPDX-License-Identifier: MIT
// Counts a serve-mock request's input items and content parts from its raw bytes as they arrive,
// so a body over the item limit is refused after the chunk that passes it, without a JSON.parse
// of the whole body on the server's thread (docs/RELIABILITY.md, "serve-mock").
// Invariants:
//  - Linear and incremental: each byte is looked at once, in the order received; the state kept
//    between chunks is a stack of open containers (one small integer each) and at most
//    MAX_KEY_BYTES bytes of the top-level key being read. No byte of the body is kept.
//  - For a valid JSON object without repeated top-level keys, `count` equals mockItemCount
//    (serve_mock.ts) of the parsed body: every element of every array inside the values of the
//    top-level members `input` and `messages` (keys compared after JSON unescaping). With a
//    repeated `input` / `messages`, every copy counts, so `count` is never below mockItemCount
//    for any copy JSON.parse or the guest would pick. So `count > limit` proves the body over the
//    limit, whichever way it is read; invalid JSON is refused either way (400 or this 413).
//  - Strings are skipped with their escapes; bytes >= 0x80 (UTF-8) never look like structure.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

// A container on the stack: these bits.
const IS_ARRAY = 1;
const COUNTED = 2; // inside the value of a top-level `input` / `messages`
const EMPTY = 4; // an array that has no element yet

/** A top-level key longer than this (raw, escapes included) is neither `input` nor `messages`. */
const MAX_KEY_BYTES = 64;
const COUNTED_KEYS = new Set(['input', 'messages']);

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Counts items and content parts across the chunks of one body (see the invariants above). */
export class MockItemScanner {
  /** Elements of counted arrays seen so far. */
  count = 0;
  #stack: number[] = [];
  #inString = false;
  #escaped = false;
  /** In the top-level object, the next string is a key. */
  #expectTopKey = false;
  /** The string being read is a top-level key; its raw bytes so far (undefined past MAX_KEY_BYTES). */
  #readingTopKey = false;
  #key: number[] | undefined = [];
  /** The value of the current top-level member is counted. */
  #topValueCounted = false;

  /** Scans one chunk; returns `count` after it. */
  push(chunk: Uint8Array): number {
    const stack = this.#stack;
    let count = this.count;
    for (let i = 0; i < chunk.length; i++) {
      // The bulk of a body is string bytes: skip them fast up to a quote or backslash.
      if (this.#inString && !this.#readingTopKey && !this.#escaped) {
        while (i < chunk.length && chunk[i] !== QUOTE && chunk[i] !== BACKSLASH) i++;
        if (i === chunk.length) break;
      }
      const byte = chunk[i] as number;
      if (this.#inString) {
        if (this.#readingTopKey && this.#key !== undefined) {
          if (this.#key.length < MAX_KEY_BYTES) this.#key.push(byte);
          else this.#key = undefined;
        }
        if (this.#escaped) this.#escaped = false;
        else if (byte === BACKSLASH) this.#escaped = true;
        else if (byte === QUOTE) {
          this.#inString = false;
          if (this.#readingTopKey) this.#endTopKey();
        }
        continue;
      }
      if (isWhitespace(byte)) continue;
      const depth = stack.length;
      const top = depth > 0 ? (stack[depth - 1] as number) : 0;
      if ((top & IS_ARRAY) !== 0) {
        // An element starts at the first byte after `[` that is not `]`, and after each `,`.
        if (byte === COMMA) {
          if ((top & COUNTED) !== 0) count++;
          continue;
        }
        if ((top & EMPTY) !== 0 && byte !== CLOSE_ARRAY) {
          stack[depth - 1] = top & ~EMPTY;
          if ((top & COUNTED) !== 0) count++;
        }
      }
      if (byte === QUOTE) {
        this.#inString = true;
        this.#readingTopKey = depth === 1 && this.#expectTopKey && (top & IS_ARRAY) === 0;
        if (this.#readingTopKey) {
          this.#expectTopKey = false;
          this.#key = [];
        }
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        const counted = (depth === 1 && this.#topValueCounted) || (top & COUNTED) !== 0;
        stack.push((byte === OPEN_ARRAY ? IS_ARRAY | EMPTY : 0) | (counted ? COUNTED : 0));
        if (depth === 0 && byte === OPEN_OBJECT) this.#expectTopKey = true;
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        stack.pop();
      } else if (byte === COMMA && depth === 1) {
        this.#expectTopKey = true;
        this.#topValueCounted = false;
      }
    }
    this.count = count;
    return count;
  }

  #endTopKey(): void {
    this.#readingTopKey = false;
    const raw = this.#key;
    this.#key = [];
    if (raw === undefined) {
      this.#topValueCounted = false;
      return;
    }
    raw.pop(); // the closing quote
    let name: unknown;
    try {
      name = raw.includes(BACKSLASH) ? JSON.parse(`"${Buffer.from(raw).toString('utf8')}"`) : Buffer.from(raw).toString('utf8');
    } catch {
      name = undefined;
    }
    this.#topValueCounted = typeof name === 'string' && COUNTED_KEYS.has(name);
  }
}
