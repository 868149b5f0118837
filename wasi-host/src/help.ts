// SPDX-License-Identifier: MIT
// The CLI's help texts (cli.ts holds the commands and flags they describe):
//  - the global help (`agentctx --help`, `agentctx help`): the commands with their usage, every
//    flag (each naming the commands it belongs to when not all of them), the script format, the
//    rollouts, the exit status;
//  - a command's help (`agentctx CMD --help`, `agentctx help CMD`): its usage and summary, only
//    its own flags with only their meaning for that command, what else it needs to say, and
//    examples to copy.
// Invariants: every line fits the width (text_wrap.ts terminalColumns: the terminal's, else 80),
// breaking only between words, with a hanging indent; a flag's help is one or two lines at 80
// columns, its details in docs/cli.md; docs/config.md is the reference for the config keys a
// --config file or a script update holds.
import { twoColumns, wrap, wrapShell } from './text_wrap.js';

export interface HelpOption {
  name: string;
  short?: string;
  arg?: string;
  optional?: { bare: string };
  /** What the flag does; a leading "run, resume: " names the commands it belongs to. */
  help: string;
  /** Its meaning in one command's help, where that differs from `help`. */
  perCommand?: Partial<Record<string, string>>;
}

export interface HelpCommand {
  name: string;
  usage: string;
  summary: string;
  options: string[];
  /** Shell lines to copy, each a complete command. */
  examples: string[];
  /** More to say in this command's help (one paragraph per entry). */
  notes?: string[];
}

/** The script format of `run --script FILE.jsonl`: [the line, what it does]. */
const SCRIPT_ROWS: [string, string][] = [
  ['{"submit":"text"}', 'a turn'],
  ['{"update":{…}}', 'a config delta (keys: docs/config.md), e.g. {"approval_policy":"never"}'],
  ['{"write":{"path","content"}}', 'the host writes a workspace file'],
  ['{"remove":"rel/path"}', 'the host removes a workspace file or directory'],
  ['{"tick_ms":N}', 'advance the session clock (scripts use a virtual clock)'],
  ['{"compact":true}', 'a manual compaction turn'],
];

const SCRIPTS_INTRO = 'Scripts (run --script FILE.jsonl): one JSON object per line, blank lines skipped:';

const ROLLOUTS_HELP = 'Rollouts: <home>/sessions/rollout-<time>-<session id>.jsonl, appended by the engine as it ' +
  'goes; resume continues a rollout under the home in place and copies any other file there first. ' +
  'The engine\'s tools never reach the home, even when it lies inside the workspace (it is hidden there).';

const MCP_HELP = 'MCP servers run on the host, outside the WASI sandbox, with your rights: each tool call is ' +
  'asked about first (y/n/always on a terminal; refused in scripts and pipes) unless --approval ' +
  "never or the server's approved_tools lists it; only a line typed after the question answers it " +
  '(lines typed ahead are discarded). What servers send is shown with control characters escaped (docs/mcp.md).';

const TERMINAL_HELP = 'On a terminal, run and resume show a status line while the model works and, after each ' +
  "turn, its tokens and cost; the REPL's /status shows the model, the context left and the session cost.";

const EXIT_HELP = 'Exit status: 0 ok, 1 engine error or failed turn, 2 usage error, 130 interrupted, 141 output ' +
  'closed early (e.g. piped into head).';

const DOCS_HELP = 'Every flag in detail: docs/cli.md.';

function optionUsage(o: HelpOption): string {
  return `${o.short ? `-${o.short}, ` : '    '}--${o.name}${o.optional ? `[=${o.arg}]` : o.arg ? ` ${o.arg}` : ''}`;
}

/** A flag's help in `command`'s help: its own meaning, without a leading "run: " naming it. */
function ownHelp(o: HelpOption, command: string | undefined): string {
  if (command === undefined) return o.help;
  const own = o.perCommand?.[command];
  if (own !== undefined) return own;
  const m = /^([a-z-]+(?:, [a-z-]+)*): /.exec(o.help);
  return m !== null && (m[1] as string).split(', ').includes(command) ? o.help.slice(m[0].length) : o.help;
}

/** The option rows: usage, then its help wrapped beside it. */
function optionLines(options: HelpOption[], width: number, command?: string, extra: [string, string][] = []): string[] {
  const rows: [string, string][] = options.map((o) => [optionUsage(o), ownHelp(o, command)]);
  rows.push(['-h, --help', 'print this help and exit'], ...extra);
  return twoColumns(rows, width, { maxLeft: 27 });
}

function paragraph(text: string, width: number): string[] {
  return text.split('\n\n').flatMap((p, i) => [...(i > 0 ? [''] : []), ...wrap(p, width)]);
}

function examples(lines: string[], width: number): string[] {
  return [lines.length === 1 ? 'Example:' : 'Examples:', ...lines.flatMap((e) => wrapShell(e, width, '  ', '      '))];
}

export function globalHelp(commands: HelpCommand[], options: HelpOption[], width: number): string {
  return [
    'Usage: agentctx COMMAND [OPTIONS] [ARGS]',
    '',
    ...wrap('agentctx runs the agentctx context engine inside a WASI sandbox (agentctx.wasm): the engine ' +
      'sees only /workspace (--workspace) and /state (--home); the host alone talks to the network.', width),
    '',
    'Commands:',
    ...twoColumns([
      ...commands.map((c): [string, string] => [c.usage, c.summary]),
      ['help [COMMAND]', "this help, or one command's flags with examples (same as COMMAND --help)"],
    ], width, { maxLeft: 26 }),
    '',
    'Options:',
    ...optionLines(options, width, undefined, [['-V, --version', 'print the engine version and exit']]),
    '',
    ...wrap(MCP_HELP, width),
    '',
    ...wrap(SCRIPTS_INTRO, width),
    ...twoColumns(SCRIPT_ROWS, width, { maxLeft: 30 }),
    '',
    ...wrap(ROLLOUTS_HELP, width),
    '',
    ...wrap(TERMINAL_HELP, width),
    '',
    ...wrap(EXIT_HELP, width),
    '',
    ...wrap(`${DOCS_HELP} Run 'agentctx help COMMAND' for a command's own flags and examples.`, width),
    '',
  ].join('\n');
}

export function commandHelp(command: HelpCommand, options: HelpOption[], width: number): string {
  const own = options.filter((o) => command.options.includes(o.name));
  return [
    ...wrap(`Usage: agentctx ${command.usage}`, width, '', '    '),
    '',
    ...wrap(`${command.summary.charAt(0).toUpperCase()}${command.summary.slice(1)}.`, width),
    ...(command.notes ?? []).flatMap((note) => ['', ...paragraph(note, width)]),
    ...(command.options.includes('mcp') ? ['', ...wrap(MCP_HELP, width)] : []),
    ...(command.name === 'run' || command.name === 'resume' ? ['', ...wrap(TERMINAL_HELP, width)] : []),
    '',
    'Options:',
    ...optionLines(own, width, command.name),
    ...(command.name === 'run' ? ['', ...wrap(SCRIPTS_INTRO, width), ...twoColumns(SCRIPT_ROWS, width, { maxLeft: 30 })] : []),
    '',
    ...examples(command.examples, width),
    '',
    ...wrap(EXIT_HELP, width),
    ...wrap(DOCS_HELP, width),
    '',
  ].join('\n');
}
