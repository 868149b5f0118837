// SPDX-License-Identifier: MIT
// The terminal's sign of life while the model works: one status line on stderr,
// "working 12s · Ctrl-C to interrupt", redrawn every second in place.
// Invariants:
//  - Used only when stderr is a terminal and the output is not --json (commands.ts decides);
//    off a terminal nothing here ever writes.
//  - The line has no newline: it is drawn as CR + erase-line + text and erased (CR + erase-line)
//    before anything else reaches the terminal (HumanOutput clears it before each write), when
//    the turn ends, and when the process exits while it shows; so it never mixes with the reply.
//  - Its timer is unref'd: it never keeps the process alive.
import type { Writer } from './output.js';

const ERASE_LINE = '\r\x1b[2K';

/** "0s", "59s", "1m 05s", "1h 02m". */
export function elapsedText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

export class StatusLine {
  readonly #err: Writer;
  readonly #now: () => number;
  readonly #intervalMs: number;
  #since = 0;
  #shown = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #onExit = (): void => this.clear();

  constructor(err: Writer, options: { now?: () => number; intervalMs?: number } = {}) {
    this.#err = err;
    this.#now = options.now ?? Date.now;
    this.#intervalMs = options.intervalMs ?? 1000;
  }

  /** Whether the line is on the terminal now. */
  get shown(): boolean {
    return this.#shown;
  }

  /** Shows (or keeps showing) the line, counting from `since` (ms, the turn's start). */
  show(since: number): void {
    this.#since = since;
    if (!this.#shown) {
      this.#shown = true;
      process.on('exit', this.#onExit);
      this.#timer = setInterval(() => this.#draw(), this.#intervalMs);
      this.#timer.unref();
    }
    this.#draw();
  }

  /** Erases the line if it shows (the cursor is then at the start of an empty line). */
  clear(): void {
    if (!this.#shown) return;
    this.#shown = false;
    clearInterval(this.#timer);
    this.#timer = undefined;
    process.off('exit', this.#onExit);
    this.#err.write(ERASE_LINE);
  }

  #draw(): void {
    this.#err.write(`${ERASE_LINE}working ${elapsedText(this.#now() - this.#since)} · Ctrl-C to interrupt`);
  }
}
