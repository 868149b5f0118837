// SPDX-License-Identifier: MIT
// Fitting text to a terminal: the width to wrap to, paragraphs with a hanging indent, two-column
// rows (a flag and what it does) and shell lines continued with `\`.
// Invariants:
//  - A line breaks only at a space (outside quotes for a shell line): a word is never split, and
//    a word wider than the line stands alone on its line rather than being cut.
//  - Lines carry no trailing spaces; the text's words come out in order, none added or lost
//    (shell continuations add only the ` \` that ends a continued line).
//  - Widths count UTF-16 code units: the help texts are ASCII but for single-column
//    punctuation (… — ·).

/** Columns when the output is not a terminal and COLUMNS is not set. */
export const DEFAULT_COLUMNS = 80;
/** Below this, wrapping would make every option a column of single words. */
export const MIN_COLUMNS = 40;

/**
 * The width to wrap to: the terminal's columns when `stream` is a TTY, else $COLUMNS when it is a
 * number, else 80; never below MIN_COLUMNS.
 */
export function terminalColumns(
  stream: { isTTY?: boolean; columns?: number } = process.stdout,
  env: Readonly<Record<string, string | undefined>> = process.env,
): number {
  let columns = DEFAULT_COLUMNS;
  if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0) {
    columns = stream.columns;
  } else if (/^\d{1,4}$/.test(env['COLUMNS'] ?? '') && Number(env['COLUMNS']) > 0) {
    columns = Number(env['COLUMNS']);
  }
  return Math.max(MIN_COLUMNS, columns);
}

/** `words` packed into lines of at most `width` columns: `first` before line 1, `rest` before the others. */
function pack(words: string[], width: number, first: string, rest: string, joiner = ' ', continued = ''): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + joiner.length + word.length + continued.length > width) {
      lines.push(line + continued);
      line = rest;
      empty = true;
    }
    line += (empty ? '' : joiner) + word;
    empty = false;
  }
  lines.push(line);
  return lines.map((l) => l.trimEnd());
}

/** `text` (whitespace collapsed) in lines of at most `width` columns, `indent` before the first, `hanging` before the rest. */
export function wrap(text: string, width: number, indent = '', hanging = indent): string[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  return pack(words, width, indent, hanging);
}

/** The narrowest right column beside the lefts (else the rights go under them). */
const NARROW_RIGHT = 36;

/**
 * Rows of `[left, right]`: the lefts in one column (as wide as the widest left up to
 * `maxLeft`), each right wrapped beside it; a left wider than `maxLeft` gets its right on the
 * next line, in the same column. When that column would be narrower than NARROW_RIGHT, every
 * right goes under its left, eight columns in.
 */
export function twoColumns(rows: [string, string][], width: number, options: { indent?: number; gap?: number; maxLeft?: number } = {}): string[] {
  const indent = ' '.repeat(options.indent ?? 2);
  const gap = options.gap ?? 2;
  const maxLeft = options.maxLeft ?? 28;
  let leftWidth = Math.min(maxLeft, Math.max(0, ...rows.map(([l]) => l.length)));
  // A narrow terminal: each right under its left, indented, rather than a column of single words.
  if (width - indent.length - leftWidth - gap < NARROW_RIGHT) leftWidth = Math.min(leftWidth, 8 - gap);
  const column = ' '.repeat(indent.length + leftWidth + gap);
  const out: string[] = [];
  for (const [left, right] of rows) {
    if (right === '') {
      out.push(indent + left);
    } else if (left.length > leftWidth) {
      out.push(indent + left, ...wrap(right, width, column));
    } else {
      out.push(...wrap(right, width, indent + left.padEnd(leftWidth + gap), column));
    }
  }
  return out;
}

/** The words of a shell line: split at spaces outside '…' and "…" (quotes kept). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  for (const ch of line) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word += ch;
    } else if (ch === ' ') {
      if (word !== '') words.push(word);
      word = '';
    } else {
      word += ch;
    }
  }
  if (word !== '') words.push(word);
  return words;
}

/**
 * A shell command line in lines of at most `width` columns, continued with ` \` and `hanging`;
 * a flag stays on one line with its value (`--price-input 2`).
 */
export function wrapShell(line: string, width: number, indent: string, hanging: string): string[] {
  const units: string[] = [];
  for (const word of shellWords(line)) {
    const last = units[units.length - 1];
    if (last !== undefined && /^--?[A-Za-z][\w-]*$/.test(last) && !word.startsWith('-') && last.length + word.length < 40) {
      units[units.length - 1] = `${last} ${word}`;
    } else {
      units.push(word);
    }
  }
  return pack(units, width, indent, hanging, ' ', ' \\');
}
