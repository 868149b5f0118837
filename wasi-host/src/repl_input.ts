// SPDX-License-Identifier: MIT
// What a line typed into the REPL means. A line whose first word is `/word` is a REPL command:
// /compact, /status, /help, /exit (or /quit); any other /word is refused, never sent to the model. A
// line starting with `//` is sent with one slash removed; `/path/to/file …` (a slash inside the
// first word) is text. Everything else is a turn.

export const REPL_BANNER = 'agentctx: one turn per line; /compact /status /help /exit (/help says more)';

export const REPL_HELP = [
  'REPL commands:',
  '  /compact   compact the history now (a turn of its own)',
  '  /status    model, provider, context used and left, session tokens and cost',
  '  /help      this list',
  '  /exit      end the session (also /quit, Ctrl-D); Ctrl-C interrupts a turn',
  'Any other line is a turn; start it with // to send a line that begins with /.',
  '',
].join('\n');

export type ReplLine =
  | { kind: 'empty' }
  | { kind: 'exit' }
  | { kind: 'compact' }
  | { kind: 'help' }
  | { kind: 'status' }
  | { kind: 'unknown'; command: string }
  | { kind: 'text'; text: string };

const COMMANDS: Record<string, ReplLine['kind']> = { '/exit': 'exit', '/quit': 'exit', '/compact': 'compact', '/status': 'status', '/help': 'help' };

export function parseReplLine(raw: string): ReplLine {
  const line = raw.trim();
  if (line === '') return { kind: 'empty' };
  if (line.startsWith('//')) return { kind: 'text', text: line.slice(1) };
  const word = /^\/[^\s/]*(?=\s|$)/.exec(line)?.[0];
  if (word === undefined) return { kind: 'text', text: line };
  const kind = COMMANDS[word];
  if (kind === undefined || line !== word) return { kind: 'unknown', command: line };
  return { kind } as ReplLine;
}
