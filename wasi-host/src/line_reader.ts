// SPDX-License-Identifier: MIT
// LineReader: the lines of stdin, taken one at a time by whoever asks next. The REPL and the
// MCP approval prompt share it, so a line typed as an answer is never also run as a prompt.
// Invariants: every line is handed out at most once, in order; lines that arrive while nobody
// asks wait in the queue until someone asks or discardTypedAhead() drops them (with the
// unfinished line): a question is answered only by what is typed after it is shown. After the
// input ends (or close()) next() resolves undefined. A line ends at LF; one CR before it is
// dropped. The process has one reader of stdin (stdinLines), created only when something reads it.
import { StringDecoder } from 'node:string_decoder';
import type { ReadStream } from 'node:tty';

export class LineReader {
  readonly #input: NodeJS.ReadableStream;
  readonly #decoder = new StringDecoder('utf8');
  readonly #queue: string[] = [];
  readonly #waiting: ((line: string | undefined) => void)[] = [];
  /** Text after the last line end (a line being typed). */
  #partial = '';
  #ended = false;
  readonly #onData = (chunk: Buffer | string): void => {
    this.#take(typeof chunk === 'string' ? chunk : this.#decoder.write(chunk));
  };
  readonly #onEnd = (): void => {
    if (this.#ended) return;
    const rest = this.#partial + this.#decoder.end();
    this.#partial = '';
    if (rest !== '') this.#line(rest);
    this.#ended = true;
    for (const waiter of this.#waiting.splice(0)) waiter(undefined);
  };

  readonly #releaseTerminalLine: (() => void) | undefined;

  /**
   * `releaseTerminalLine`, for a terminal in line mode: makes the terminal hand over the line
   * being typed (its line discipline holds it until Enter), so discardTypedAhead() drops it too.
   */
  constructor(input: NodeJS.ReadableStream, releaseTerminalLine?: () => void) {
    this.#input = input;
    this.#releaseTerminalLine = releaseTerminalLine;
    input.on('data', this.#onData);
    input.on('end', this.#onEnd);
    input.on('close', this.#onEnd);
    input.on('error', this.#onEnd);
  }

  #take(text: string): void {
    const parts = (this.#partial + text).split('\n');
    this.#partial = parts.pop() ?? '';
    for (const part of parts) this.#line(part.endsWith('\r') ? part.slice(0, -1) : part);
  }

  #line(line: string): void {
    const waiter = this.#waiting.shift();
    if (waiter !== undefined) waiter(line);
    else this.#queue.push(line);
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

  /**
   * Drops every line that waits in the queue and the unfinished one (what was typed before a
   * question is shown, as `sudo` does); resolves how many lines, the unfinished one included.
   * It first lets the input hand over what it already holds (two turns of the event loop, one
   * full poll phase between them), so lines typed just before the call are dropped too.
   */
  async discardTypedAhead(): Promise<number> {
    try {
      this.#releaseTerminalLine?.();
    } catch {
      // not a terminal after all: the queue is still dropped
    }
    for (let i = 0; i < 2; i += 1) await new Promise((resolve) => setImmediate(resolve));
    const dropped = this.#queue.length + (this.#partial === '' ? 0 : 1);
    this.#queue.length = 0;
    this.#partial = '';
    return dropped;
  }

  /** The lines in order, until the input ends (leaving the loop early keeps the reader open). */
  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    for (;;) {
      const line = await this.next();
      if (line === undefined) return;
      yield line;
    }
  }

  /** Stops reading the input (the process may then end); waiting askers get undefined. */
  close(): void {
    this.#input.off('data', this.#onData);
    this.#input.pause();
    this.#onEnd();
  }
}

let stdinReader: LineReader | undefined;

/** The lines of stdin, shared by the REPL and the MCP approval prompt (created on first use). */
export function stdinLines(): LineReader {
  // Leaving line mode and coming back makes the kernel hand over an unfinished line (Linux
  // n_tty marks what it holds as a line when ICANON is set again), so it can be dropped: what
  // sudo does with tcflush(), which Node does not offer.
  const stdin = process.stdin as ReadStream;
  stdinReader ??= new LineReader(stdin, stdin.isTTY === true && typeof stdin.setRawMode === 'function'
    ? () => {
      if (stdin.isRaw) return;
      stdin.setRawMode(true);
      stdin.setRawMode(false);
    }
    : undefined);
  return stdinReader;
}

/** Lets go of stdin (the process may then end), if it was read. */
export function releaseStdin(): void {
  stdinReader?.close();
}
