// SPDX-License-Identifier: MIT
// The CLI's help texts (cli.ts holds the commands and flags they describe):
//  - the global help (`agentctx --help`, `agentctx help`): the commands with their usage, every
//    flag (each naming the commands it belongs to when not all of them), the script format, the
//    rollouts, the exit status;
//  - a command's help (`agentctx CMD --help`, `agentctx help CMD`): its usage and summary, only
//    its own flags, what else it needs to say, and examples to copy.
// docs/config.md is the reference for the config keys a --config file or a script update holds.

export interface HelpOption {
  name: string;
  short?: string;
  arg?: string;
  optional?: { bare: string };
  help: string;
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

/** The script format of `run --script FILE.jsonl`. */
export const SCRIPT_HELP = [
  'Scripts (run --script FILE.jsonl): one JSON object per line, blank lines skipped:',
  '  {"submit":"text"}                        a turn',
  '  {"update":{"approval_policy":"never"}}   a config delta (keys: docs/config.md); {"cwd":"src"} is relative to the workspace',
  '  {"write":{"path":"rel/path","content":"..."}}  the host writes a workspace file',
  '  {"remove":"rel/path"}                    the host removes a workspace file or directory',
  '  {"tick_ms":N}                            advance the session clock (scripts use a virtual clock)',
  '  {"compact":true}                         a manual compaction turn',
];

const ROLLOUTS_HELP = [
  'Rollouts: <home>/sessions/rollout-<time>-<session id>.jsonl, appended by the engine as it goes;',
  'resume continues a rollout under the home in place and copies any other file there first.',
];

const EXIT_HELP = 'Exit status: 0 ok, 1 engine error or failed turn, 2 usage error, 130 interrupted.';

function optionUsage(o: HelpOption): string {
  return `${o.short ? `-${o.short}, ` : '    '}--${o.name}${o.optional ? `[=${o.arg}]` : o.arg ? ` ${o.arg}` : ''}`;
}

/**
 * `  usage   help` lines, the usages padded to one width. In one command's help, a leading
 * "run: " or "run, resume: " that names that command is dropped (it goes without saying).
 */
function optionLines(options: HelpOption[], command?: string): string[] {
  const own = (help: string): string => {
    const m = /^([a-z-]+(?:, [a-z-]+)*): /.exec(help);
    return command !== undefined && m !== null && (m[1] as string).split(', ').includes(command) ? help.slice(m[0].length) : help;
  };
  const rows: [string, string][] = options.map((o) => [optionUsage(o), own(o.help)]);
  rows.push(['-h, --help', 'print this help and exit']);
  const width = Math.max(...rows.map(([u]) => u.length)) + 2;
  return rows.map(([u, h]) => `  ${u.padEnd(width)}${h}`);
}

export function globalHelp(commands: HelpCommand[], options: HelpOption[]): string {
  const width = Math.max(...commands.map((c) => c.usage.length), 'help [COMMAND]'.length) + 2;
  return [
    'Usage: agentctx COMMAND [OPTIONS] [ARGS]',
    '',
    'agentctx runs the agentctx context engine inside a WASI sandbox (agentctx.wasm): the engine',
    'sees only /workspace (--workspace) and /state (--home); the host alone talks to the network.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.usage.padEnd(width)}${c.summary}`),
    `  ${'help [COMMAND]'.padEnd(width)}this help, or one command's flags with examples (same as COMMAND --help)`,
    '',
    'Options:',
    ...optionLines(options),
    `  ${'-V, --version'.padEnd(Math.max(...options.map((o) => optionUsage(o).length)) + 2)}print the engine version and exit`,
    '',
    ...SCRIPT_HELP,
    '',
    ...ROLLOUTS_HELP,
    '',
    EXIT_HELP,
    '',
    "Run 'agentctx help COMMAND' for a command's own flags and examples.",
    '',
  ].join('\n');
}

export function commandHelp(command: HelpCommand, options: HelpOption[]): string {
  const own = options.filter((o) => command.options.includes(o.name));
  return [
    `Usage: agentctx ${command.usage}`,
    '',
    `${command.summary.charAt(0).toUpperCase()}${command.summary.slice(1)}.`,
    ...(command.notes ?? []).flatMap((note) => ['', note]),
    '',
    'Options:',
    ...optionLines(own, command.name),
    ...(command.name === 'run' ? ['', ...SCRIPT_HELP] : []),
    '',
    command.examples.length === 1 ? 'Example:' : 'Examples:',
    ...command.examples.map((e) => `  ${e}`),
    '',
    EXIT_HELP,
    '',
  ].join('\n');
}
