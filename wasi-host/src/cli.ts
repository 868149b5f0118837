#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// `agentctx`, the sandboxed CLI (issue 7) over the WASI guest (guest.ts).
// Invariants:
//  - Every command runs the engine inside agentctx.wasm with exactly two preopens:
//    --workspace as /workspace (read-only unless --writable) and --home as /state.
//  - stdout carries only results (envelopes); diagnostics are one line on stderr, prefixed
//    `agentctx: `. Exit codes: 0 ok, 1 error envelope or runtime failure, 2 usage error.
//  - Uses the global `process`; never imports node:process (TOOLCHAIN §5).
// Commands are a table so the planned ones (run, inspect, replay, resume, serve-mock) slot in
// with the common options already parsed.
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { GuestOptions, WasiGuest } from './guest.js';

// node:wasi emits its ExperimentalWarning when it is linked, so guest.js (which imports it) is
// loaded dynamically, after the warning listeners are gone. The library leaves an embedder's
// process alone; the CLI owns its process.
process.removeAllListeners('warning');
const loadGuest = async (options?: GuestOptions): Promise<WasiGuest> =>
  (await import('./guest.js')).WasiGuest.load(options);

/** Options every command understands. */
interface CommonOptions {
  /** Host directory preopened as /workspace. */
  workspace: string;
  /** agentctx home, preopened as /state (rollouts, host state). */
  home: string;
  /** Whether /workspace is writable. */
  writable: boolean;
}

interface Command {
  name: string;
  usage: string;
  summary: string;
  /** Absent: planned, not implemented yet. */
  run?: (args: string[], options: CommonOptions) => Promise<number>;
}

class UsageError extends Error {}

const COMMANDS: Command[] = [
  {
    name: 'call',
    usage: 'call METHOD [JSON]',
    summary: 'call an engine method (handle 0) with a JSON input (default {}) and print the envelope',
    run: runCall,
  },
  { name: 'run', usage: 'run [PROMPT]', summary: 'run a session turn against a model' },
  { name: 'inspect', usage: 'inspect ROLLOUT', summary: 'summarise a rollout file' },
  { name: 'replay', usage: 'replay ROLLOUT', summary: 'replay a rollout and explain prompt-cache breaks' },
  { name: 'resume', usage: 'resume ROLLOUT', summary: 'resume a session from its rollout' },
  { name: 'serve-mock', usage: 'serve-mock', summary: 'serve the embedded mock model as Responses SSE on 127.0.0.1' },
];

function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.usage.length)) + 2;
  const line = (c: Command): string => `  ${c.usage.padEnd(width)}${c.summary}${c.run ? '' : ' (planned)'}`;
  return [
    'Usage: agentctx [OPTIONS] COMMAND [ARGS]',
    '',
    'agentctx runs the agentctx context engine inside a WASI sandbox (agentctx.wasm): the engine',
    'sees only /workspace and /state.',
    '',
    'Commands:',
    ...COMMANDS.map(line),
    '',
    'Options:',
    '  --workspace DIR  host directory mounted as /workspace (default: the current directory)',
    '  --home DIR       agentctx home, mounted as /state for rollouts',
    '                   (default: $AGENTCTX_HOME, else ~/.agentctx)',
    '  --writable       let the engine write below /workspace (default: read-only)',
    '  -h, --help       print this help and exit',
    '  -V, --version    print the engine version and exit',
    '',
    'Exit status: 0 ok, 1 error envelope or runtime failure, 2 usage error.',
    '',
  ].join('\n');
}

async function engineVersion(): Promise<string> {
  const guest = await loadGuest();
  const envelope = JSON.parse(guest.call(0, 'version', '{}')) as { value?: { version?: string } };
  return envelope.value?.version ?? 'unknown';
}

function guestOptions(options: CommonOptions): GuestOptions {
  const out: GuestOptions = { workspace: options.workspace, writable: options.writable };
  // /state is mounted when the home exists; commands that persist (run, resume) will create it.
  if (existsSync(options.home)) out.state = options.home;
  return out;
}

async function runCall(args: string[], options: CommonOptions): Promise<number> {
  const [method, input = '{}', ...rest] = args;
  if (method === undefined || method === '') throw new UsageError('call needs a METHOD');
  if (rest.length > 0) throw new UsageError(`call takes METHOD [JSON], got an extra argument '${rest[0]}'`);
  const guest = await loadGuest(guestOptions(options));
  const { ok, envelope } = guest.callResult(0, method, input);
  process.stdout.write(envelope + '\n');
  if (!ok) process.stderr.write(`agentctx: ${describeError(envelope)}\n`);
  return ok ? 0 : 1;
}

/** `<code>: <message>` of an error envelope (one line). */
function describeError(envelope: string): string {
  try {
    const e = (JSON.parse(envelope) as { error?: { code?: string; message?: string } }).error;
    return oneLine(`${e?.code ?? 'internal'}: ${e?.message ?? 'no message'}`);
  } catch {
    return 'internal: the engine returned an unreadable envelope';
  }
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ');
}

function directory(flag: string, dir: string): string {
  const abs = resolve(dir);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    throw new UsageError(`${flag} ${dir}: no such directory`);
  }
  if (!isDir) throw new UsageError(`${flag} ${dir}: not a directory`);
  return abs;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        workspace: { type: 'string' },
        home: { type: 'string' },
        writable: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'V', default: false },
      },
    });
  } catch (e) {
    // parseArgs' messages go on with advice about `--`; keep the first sentence.
    const message = e instanceof Error ? e.message.split('. To specify')[0] : undefined;
    throw new UsageError(message || 'bad arguments');
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(helpText());
    return 0;
  }
  if (values.version) {
    process.stdout.write(`agentctx ${await engineVersion()}\n`);
    return 0;
  }
  const [name, ...args] = positionals;
  if (name === undefined) throw new UsageError('missing COMMAND');
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command '${name}'`);
  if (!command.run) throw new UsageError(`'${name}' is not implemented yet`);
  const options: CommonOptions = {
    workspace: directory('--workspace', values.workspace ?? process.cwd()),
    home: resolve(values.home ?? process.env['AGENTCTX_HOME'] ?? join(homedir(), '.agentctx')),
    writable: values.writable === true,
  };
  return command.run(args, options);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`agentctx: ${oneLine(e.message)} (see 'agentctx --help')\n`);
      process.exitCode = 2;
    } else if (e instanceof Error && e.name === 'AgentctxHostError' && 'code' in e) {
      process.stderr.write(`agentctx: ${String(e.code)}: ${oneLine(e.message)}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`agentctx: internal: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
      process.exitCode = 1;
    }
  },
);
