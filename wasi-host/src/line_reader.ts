// SPDX-License-Identifier: MIT
// LineReader: the lines of stdin, taken one at a time by whoever asks next. The REPL and the
// MCP approval prompt share it, so a line typed as an answer is never also run as a prompt.
// Invariants: every line is handed out exactly once, in order; lines that arrive while nobody
// asks wait in the queue; after the input ends (or close()) next() resolves undefined. The
// process has one reader of stdin (stdinLines), created only when something reads it.
import { createInterface } from 'node:readline';
import type { Interface } from 'node:readline';

export class LineReader {
  readonly #rl: Interface;
  readonly #queue: string[] = [];
  readonly #waiting: ((line: string | undefined) => void)[] = [];
  #ended = false;

  constructor(input: NodeJS.ReadableStream) {
    this.#rl = createInterface({ input, terminal: false });
    this.#rl.on('line', (line) => {
      const waiter = this.#waiting.shift();
      if (waiter !== undefined) waiter(line);
      else this.#queue.push(line);
    });
    this.#rl.on('close', () => {
      this.#ended = true;
      for (const waiter of this.#waiting.splice(0)) waiter(undefined);
    });
  }

  /** The next line, or undefined once the input has ended or `signal` aborts (the line then stays for the next asker). */
  next(signal?: AbortSignal): Promise<string | undefined> {
    const line = this.#queue.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#ended || signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter = (l: string | undefined): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(l);
      };
      const onAbort = (): void => {
        const i = this.#waiting.indexOf(waiter);
        if (i >= 0) this.#waiting.splice(i, 1);
        resolve(undefined);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  /** The lines in order, until the input ends (leaving the loop early keeps the reader open). */
  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    for (;;) {
      const line = await this.next();
      if (line === undefined) return;
      yield line;
    }
  }

  close(): void {
    this.#rl.close();
  }
}

let stdinReader: LineReader | undefined;

/** The lines of stdin, shared by the REPL and the MCP approval prompt (created on first use). */
export function stdinLines(): LineReader {
  stdinReader ??= new LineReader(process.stdin);
  return stdinReader;
}

/** Lets go of stdin (the process may then end), if it was read. */
export function releaseStdin(): void {
  stdinReader?.close();
}
