// SPDX-License-Identifier: MIT
// The read buffer of a stdio MCP connection (Node only; docs/mcp.md, "Limits"): splits the
// server's stdout into JSON-RPC messages, one per line, in place of the SDK's ReadBuffer, which
// copies the whole buffer at every chunk (quadratic in a line's size) and, past 10 MiB, throws,
// which closes the transport — a large tool result then looked like the server crashing.
// Invariants:
//  - Linear: each byte is looked at once; a line is joined once, when its newline arrives.
//  - A line over maxBytes is never held: its bytes are dropped as they come (only its first and
//    last ID_WINDOW bytes are kept, to find its `id`). When it ends, the request it answered gets
//    a JSON-RPC error that says what happened (its size and the limit) instead of a result; the
//    server is not stopped and its later answers are read as usual. A dropped line whose id
//    cannot be found (the id in the middle of the object) is reported through the transport's
//    onerror and its request waits for its timeout.
//  - The interface is the SDK's ReadBuffer's: append(chunk), readMessage() (null: nothing whole
//    yet; throws for a line that is not a JSON-RPC message, after consuming it), clear().

/** The largest stdio message read (32 MiB, one SSE event's limit too); its result is then cut on record like any tool output. */
export const MCP_MAX_STDIO_MESSAGE_BYTES = 32 * 1024 * 1024;

/** Bytes kept at each end of a dropped line to find its `id`. */
const ID_WINDOW = 512;
const NEWLINE = 0x0a;

type Pending = { line: string } | { tooLarge: number; id: number | string | undefined };

/** The `id` of a JSON-RPC response from the start or the end of its text, when it is there. */
export function responseIdOf(head: string, tail: string): number | string | undefined {
  const value = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
  const first = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}`).exec(head);
  const last = new RegExp(String.raw`"id"\s*:\s*${value}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`).exec(tail);
  const text = first?.[1] ?? last?.[1];
  if (text === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(text);
    return typeof id === 'number' || typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

export class McpLineBuffer {
  readonly #maxBytes: number;
  readonly #parse: (line: string) => unknown;
  #chunks: Buffer[] = [];
  #size = 0;
  /** Set while a line over the limit is being dropped. */
  #dropping: { head: Buffer; tail: Buffer; bytes: number } | undefined;
  #ready: Pending[] = [];

  /** `parse` turns one line into a message (the SDK's deserializeMessage) and throws on a bad one. */
  constructor(maxBytes: number, parse: (line: string) => unknown) {
    this.#maxBytes = maxBytes;
    this.#parse = parse;
  }

  append(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      this.#take(chunk.subarray(start, nl < 0 ? chunk.length : nl));
      if (nl < 0) return;
      this.#endLine();
      start = nl + 1;
    }
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    const d = this.#dropping;
    if (d !== undefined) {
      d.bytes += piece.length;
      d.tail = piece.length >= ID_WINDOW ? Buffer.from(piece.subarray(-ID_WINDOW)) : Buffer.concat([d.tail, piece]).subarray(-ID_WINDOW);
      return;
    }
    if (this.#size + piece.length <= this.#maxBytes) {
      this.#chunks.push(piece);
      this.#size += piece.length;
      return;
    }
    const all = [...this.#chunks, piece];
    const headBytes = Buffer.concat(all.map((c) => c.subarray(0, ID_WINDOW))).subarray(0, ID_WINDOW);
    const tailBytes = Buffer.concat(all.slice(-2).map((c) => c.subarray(-ID_WINDOW))).subarray(-ID_WINDOW);
    this.#dropping = { head: Buffer.from(headBytes), tail: Buffer.from(tailBytes), bytes: this.#size + piece.length };
    this.#chunks = [];
    this.#size = 0;
  }

  #endLine(): void {
    const d = this.#dropping;
    if (d !== undefined) {
      this.#dropping = undefined;
      this.#ready.push({ tooLarge: d.bytes, id: responseIdOf(d.head.toString('utf8'), d.tail.toString('utf8')) });
      return;
    }
    const line = this.#chunks.length === 1 ? (this.#chunks[0] as Buffer).toString('utf8') : Buffer.concat(this.#chunks).toString('utf8');
    this.#chunks = [];
    this.#size = 0;
    this.#ready.push({ line: line.replace(/\r$/, '') });
  }

  readMessage(): unknown {
    const next = this.#ready.shift();
    if (next === undefined) return null;
    if ('line' in next) return this.#parse(next.line);
    const message = `the server's answer was ${next.tooLarge} bytes, over the limit of ${this.#maxBytes} bytes for one MCP message ` +
      '(a stdio line); it was dropped, and the server keeps running';
    if (next.id === undefined) throw new Error(`${message}; the request it answered could not be told`);
    return { jsonrpc: '2.0', id: next.id, error: { code: -32603, message } };
  }

  clear(): void {
    this.#chunks = [];
    this.#size = 0;
    this.#dropping = undefined;
    this.#ready = [];
  }
}
