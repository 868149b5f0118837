#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// `agentctx`, the sandboxed CLI over the WASI guest (guest.ts); commands.ts has the commands,
// this file the flags, their validation, the exit codes and what each command's help says
// (help.ts renders it: `agentctx help [CMD]`, `agentctx CMD --help`).
// Invariants:
//  - Every command runs the engine inside agentctx.wasm with at most two preopens:
//    --workspace as /workspace (read-only unless --writable) and --home as /state.
//  - Every flag is documented in --help, and in the help of each command that takes it; a
//    command refuses flags it does not use.
//  - stdout carries only results; diagnostics are one line on stderr, prefixed `agentctx: `.
//    Exit codes: 0 ok, 1 engine error / failed turn / runtime failure, 2 usage error (bad flag,
//    argument, file or script line), 130 interrupted by the user, 141 stdout or stderr closed
//    by its reader (EPIPE: quietly, no stack trace).
//  - Help fits the terminal's width (80 columns off a terminal) and breaks only between words.
//  - Uses the global `process`; never imports node:process.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import {
  HostInputError, guestCwd, isObject, parseFeatures, readConfigFile,
} from './config.js';
import { CLI_ENUM_FLAGS, enumFlagProblem } from './generated/cli_enums.js';
import { commandHelp, globalHelp } from './help.js';
import { chooseHome, homeInWorkspace } from './home_dir.js';
import type { HomeChoice } from './home_dir.js';
import { terminalColumns } from './text_wrap.js';
import { terminalLine } from './terminal_text.js';
import type { CliEnumFlag } from './generated/cli_enums.js';
import type { CliOptions, GuestLoader, ReplayFlags } from './commands.js';
import type { GuestOptions, WasiGuest } from './guest.js';

// node:wasi emits its ExperimentalWarning when it is linked, so guest.js (which imports it) is
// loaded dynamically, after the warning listeners are gone. The library leaves an embedder's
// process alone; the CLI owns its process.
process.removeAllListeners('warning');
// A reader that goes away (`agentctx --help | head -1`) ends the process quietly, as SIGPIPE ends
// other tools: exit 141, no stack trace; the rollout lock goes with the 'exit' event.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(141);
    throw e;
  });
}
// V8 tiers hot wasm functions up in background threads, and the process then waits for those
// compile jobs before it can exit (seconds for agentctx.wasm on a busy machine), even after
// process.exit. A CLI session is short and its engine work small: baseline (Liftoff) code only.
setFlagsFromString('--liftoff-only');
const loadGuest: GuestLoader = async (options?: GuestOptions): Promise<WasiGuest> =>
  (await import('./guest.js')).WasiGuest.load(options);
const loadCommands = async (): Promise<typeof import('./commands.js')> => import('./commands.js');

type OptionName =
  | 'workspace' | 'cwd' | 'home' | 'config' | 'writable' | 'allow-hardlinks' | 'trust' | 'sandbox' | 'approval'
  | 'agents-refresh' | 'model' | 'provider' | 'base-url' | 'api-key-env' | 'json' | 'interactive' | 'script'
  | 'dump-requests' | 'max-retries' | 'retry-base-ms' | 'request-timeout-ms' | 'format' | 'port'
  | 'clock' | 'requests' | 'cache-ttl-ms' | 'price-input' | 'price-cached' | 'price-cache-write' | 'price-output'
  | 'top' | 'mcp' | 'feature';

interface OptionDoc {
  name: OptionName;
  type: 'string' | 'boolean';
  short?: string;
  arg?: string;
  /** The value is optional and given as --name=VALUE; bare --name means `bare` (--trust). */
  optional?: { bare: string };
  /** Repeatable: every occurrence is kept (--mcp). */
  multiple?: boolean;
  help: string;
  /** Its meaning in one command's help, where that differs (help.ts). */
  perCommand?: Partial<Record<string, string>>;
}

/** One meaning for the commands that open a session (run, resume, inspect). */
const forSessions = (help: string): Record<string, string> => ({ run: help, resume: help, inspect: help });

const OPTIONS: OptionDoc[] = [
  { name: 'workspace', type: 'string', arg: 'DIR', help: 'host directory the engine sees as /workspace (default: the current directory)' },
  { name: 'cwd', type: 'string', arg: 'PATH', help: 'working directory inside the workspace (default: its root)' },
  { name: 'home', type: 'string', arg: 'DIR', help: 'rollouts and the global AGENTS.md (default: $AGENTCTX_HOME or ~/.agentctx)' },
  { name: 'config', type: 'string', arg: 'FILE.json', help: 'engine config keys (docs/config.md), merged under the flags' },
  { name: 'mcp', type: 'string', arg: 'NAME=COMMAND…', multiple: true, help: 'an MCP server (repeatable): NAME=COMMAND [ARGS…] as one argument, or NAME=URL (docs/mcp.md)' },
  { name: 'writable', type: 'boolean', help: 'let the engine write below /workspace; sandbox workspace-write (default: read-only)', perCommand: { call: 'let the engine write below /workspace (default: read-only)' } },
  { name: 'allow-hardlinks', type: 'boolean', help: 'read workspace files with more than one hard link (default: refused; never written)' },
  { name: 'trust', type: 'string', arg: 'trusted|untrusted', optional: { bare: 'trusted' }, help: 'read the project AGENTS.md files (default: untrusted: only the global one)' },
  { name: 'sandbox', type: 'string', arg: 'MODE', help: `sandbox policy: ${CLI_ENUM_FLAGS.sandbox.join(', ')} (default: read-only)` },
  { name: 'approval', type: 'string', arg: 'POLICY', help: `approval policy: ${CLI_ENUM_FLAGS.approval.join(', ')} (default: on-request)` },
  { name: 'agents-refresh', type: 'string', arg: 'MODE', help: `AGENTS.md refresh: ${CLI_ENUM_FLAGS['agents-refresh'].join(', ')} (default: selection)` },
  { name: 'model', type: 'string', arg: 'SLUG', help: 'model slug (default: mock, the embedded mock model: no network)' },
  { name: 'provider', type: 'string', arg: 'API', help: 'model API: responses (default), chat, anthropic; replay: whose cache prices apply', perCommand: { ...forSessions('the API the requests are rendered for: responses (default), chat or anthropic'), replay: 'whose cache rules and prices apply (default: anthropic if the rollout records cache writes)' } },
  { name: 'feature', type: 'string', arg: 'NAME=on|off', multiple: true, help: 'a provider feature on or off, repeatable; unset: automatic (names: docs/cli.md)' },
  { name: 'base-url', type: 'string', arg: 'URL', help: 'API base URL, e.g. of agentctx serve-mock (default: the provider\'s official endpoint)' },
  { name: 'api-key-env', type: 'string', arg: 'VAR', help: 'variable with the API key (default: OPENAI_API_KEY, ANTHROPIC_API_KEY for anthropic)' },
  { name: 'json', type: 'boolean', help: 'one JSON object per line: the effects and host records; replay: the report', perCommand: { run: 'one JSON object per line: the effects and host records', resume: 'one JSON object per line: the effects and host records', inspect: 'the result as one line of JSON', replay: 'the report as JSON' } },
  { name: 'interactive', type: 'boolean', short: 'i', help: 'run, resume: a REPL after the optional PROMPT (one turn per line; /help lists its commands)' },
  { name: 'script', type: 'string', arg: 'FILE.jsonl', help: 'run: a scripted session (see Scripts below)' },
  { name: 'dump-requests', type: 'string', arg: 'DIR', help: 'write each request to DIR/NNNN.json (replay: as reconstructed; else as sent)', perCommand: { run: 'write every request body as DIR/NNNN.json, exactly as sent', resume: 'write every request body as DIR/NNNN.json, exactly as sent', replay: 'write every reconstructed request (what the model saw) as DIR/NNNN.json' } },
  { name: 'max-retries', type: 'string', arg: 'N', help: 'run, resume: retries of a retryable model error per request (default: 4)' },
  { name: 'retry-base-ms', type: 'string', arg: 'MS', help: 'run, resume: first backoff step, doubled per retry, plus jitter (default: 1000)' },
  { name: 'request-timeout-ms', type: 'string', arg: 'MS', help: 'run, resume: an attempt fails after MS without response data (default: 300000)' },
  { name: 'format', type: 'string', arg: 'FMT', help: `inspect: ${CLI_ENUM_FLAGS.format.join(', ')} (default: request)`, perCommand: { inspect: 'what to print: request (the next request body, default), agents, world-state or breakpoints' } },
  { name: 'port', type: 'string', arg: 'N', help: 'serve-mock: port on 127.0.0.1 (default: 0, any free port; the URL is printed)' },
  { name: 'clock', type: 'string', arg: 'CLOCK', help: 'serve-mock: wall (default) or step:<ms> (0, ms, 2·ms, … per request)' },
  { name: 'requests', type: 'boolean', help: 'replay: also list every request in the table (default: the top misses only)' },
  { name: 'cache-ttl-ms', type: 'string', arg: 'MS', help: 'replay: the cache TTL; misses after a longer idle gap are idle_past_ttl (default: 300000)' },
  { name: 'price-input', type: 'string', arg: 'USD', help: 'replay: USD per million uncached input tokens (default: 1.25)' },
  { name: 'price-cached', type: 'string', arg: 'USD', help: 'replay: USD per million cached input tokens (default: 0.125; Anthropic: 0.1 × input)' },
  { name: 'price-cache-write', type: 'string', arg: 'USD', help: 'replay: USD per million tokens written to the cache (default: 1.25 × input)' },
  { name: 'price-output', type: 'string', arg: 'USD', help: 'replay: USD per million output tokens (default: 10)' },
  { name: 'top', type: 'string', arg: 'N', help: 'replay: how many top misses the table lists (default: 10)' },
];

const SESSION_OPTIONS: OptionName[] = [
  'workspace', 'cwd', 'home', 'config', 'writable', 'allow-hardlinks', 'trust', 'sandbox', 'approval', 'agents-refresh',
  'model', 'provider', 'base-url', 'api-key-env', 'json', 'mcp', 'feature',
];
const TURN_OPTIONS: OptionName[] = ['interactive', 'dump-requests', 'max-retries', 'retry-base-ms', 'request-timeout-ms'];

interface Command {
  name: string;
  usage: string;
  summary: string;
  /** Most positional arguments after the command name (a PROMPT is one argument: quote it). */
  maxArgs: number;
  options: OptionName[];
  /** Shell lines for the command's help (`agentctx help CMD`). */
  examples: string[];
  /** More for the command's help, one paragraph each. */
  notes?: string[];
  run: (args: string[], options: CliOptions) => Promise<number>;
}

class UsageError extends Error {}

/** The home of a command that uses none (replay, serve-mock): never looked at. */
const noHome: HomeChoice = { path: '', label: 'no home' };

const COMMANDS: Command[] = [
  {
    name: 'run', maxArgs: 1, usage: 'run [OPTIONS] PROMPT', summary: 'one turn against the model; --interactive for a REPL, --script FILE.jsonl for a scripted session',
    options: [...SESSION_OPTIONS, ...TURN_OPTIONS, 'script'],
    examples: [
      'agentctx run --workspace ~/src/app "Please read README.md"',
      'agentctx run --trust --writable --workspace ~/src/app "#mock-edit:notes.txt=world=>there"',
      'agentctx run --interactive --workspace ~/src/app',
      'OPENAI_API_KEY=sk-… agentctx run --model gpt-5.5 --workspace ~/src/app "Why does the build fail?"',
      'agentctx run --script session.jsonl --workspace ~/src/app',
      'agentctx run --approval never --mcp \'everything=npx -y @modelcontextprotocol/server-everything\' \'#mock-call:mcp__everything__echo={"message":"hi"}\'',
    ],
    notes: [
      'PROMPT is one argument: quote it. The reply goes to stdout, progress to stderr, the rollout to\n' +
      '<home>/sessions/. The workspace is read-only unless --writable, and untrusted unless --trust:\n' +
      'then its AGENTS.md files are not read (the CLI says how many it found). The default model,\n' +
      'mock, answers offline; #mock-… directives make it call the tools (docs/tools.md).',
      'The REPL (--interactive): one turn per line; /compact compacts, /help lists the commands,\n' +
      '/exit (or Ctrl-D) ends; any other /word is refused, and //text sends /text.',
    ],
    run: async (a, o) => (await loadCommands()).runCommand(a, o, loadGuest),
  },
  {
    name: 'resume', maxArgs: 2, usage: 'resume FILE.jsonl [PROMPT]', summary: 'continue a session from its rollout (a REPL without PROMPT)',
    options: [...SESSION_OPTIONS, ...TURN_OPTIONS],
    examples: [
      'agentctx resume "$(ls -t ~/.agentctx/sessions/*.jsonl | head -1)"',
      'agentctx resume ~/.agentctx/sessions/rollout-2026-06-01T10-00-00-6f1e.jsonl "Now run the tests"',
    ],
    notes: [
      'The session continues with its own history: the next request reuses the cached prefix. A\n' +
      'rollout under --home is continued in place; any other file is copied there first.',
      'It also continues with the model, provider, base URL and provider features the rollout\n' +
      'recorded (never an API key: that comes from the environment). A flag that changes one says\n' +
      'so in one line. A base URL that only a rollout from outside --home names gets no API key\n' +
      'unless --base-url names it again.',
    ],
    run: async (a, o) => (await loadCommands()).resumeCommand(a, o, loadGuest),
  },
  {
    name: 'inspect', maxArgs: 1, usage: 'inspect [OPTIONS] [PROMPT]', summary: 'print the next request body, the AGENTS.md text or the world state, without calling a model',
    options: ['workspace', 'cwd', 'home', 'config', 'writable', 'allow-hardlinks', 'trust', 'sandbox', 'approval', 'agents-refresh', 'model', 'provider', 'json', 'format', 'mcp'],
    examples: [
      'agentctx inspect --workspace ~/src/app "Please read README.md"',
      'agentctx inspect --trust --format agents --workspace ~/src/app',
      'agentctx inspect --provider anthropic --format breakpoints "hi"',
    ],
    run: async (a, o) => (await loadCommands()).inspectCommand(a, o, loadGuest),
  },
  {
    name: 'replay', maxArgs: 1, usage: 'replay FILE.jsonl', summary: 'prompt-cache replay of an agentctx or Codex rollout: uncached tokens by cause, costs',
    options: ['json', 'requests', 'dump-requests', 'provider', 'cache-ttl-ms', 'price-input', 'price-cached', 'price-cache-write', 'price-output', 'top'],
    examples: [
      'agentctx replay "$(ls -t ~/.agentctx/sessions/*.jsonl | head -1)"',
      'agentctx replay --requests --price-input 2 --price-cached 0.5 --price-output 8 ~/.codex/sessions/2026/06/01/rollout.jsonl',
      'agentctx replay --json FILE.jsonl > report.json',
    ],
    notes: ['A rollout without token counts (an older Codex layout) has no cost: the replay says so and\nstill shows the prefix reuse. docs/replay.md explains every figure.'],
    run: async (a, o) => (await loadCommands()).replayCommand(a, o, loadGuest),
  },
  {
    name: 'serve-mock', maxArgs: 0, usage: 'serve-mock [--port N] [--clock=step:MS]', summary: 'serve the mock model on 127.0.0.1 as the Responses, Chat Completions and Messages APIs',
    options: ['port', 'clock'],
    examples: [
      'agentctx serve-mock --port 8080',
      'agentctx run --base-url http://127.0.0.1:8080/v1 --workspace ~/src/app "Please read README.md"',
      'curl -s http://127.0.0.1:8080/v1/models',
    ],
    notes: [
      'POST /v1/responses, /v1/chat/completions and /v1/messages answer like those APIs, each with its\n' +
      'cache rules; a request without `input` (or `messages`) gets the API\'s 400 error; GET /v1/models\n' +
      'lists the mock models (any model name is answered). Ctrl-C stops the server.',
    ],
    run: async (a, o) => (await loadCommands()).serveMockCommand(a, o, loadGuest),
  },
  {
    name: 'call', maxArgs: 2, usage: 'call METHOD [JSON]', summary: 'call an engine method (handle 0) with a JSON input (default {}) and print the envelope',
    options: ['workspace', 'home', 'writable', 'allow-hardlinks'],
    examples: [
      'agentctx call version',
      'agentctx call stats',
      'agentctx call mock.respond \'{"endpoint":"responses","body":"{\\"input\\":\\"hi\\"}"}\'',
    ],
    notes: ['The engine\'s methods on handle 0 (version, stats, mock.respond, rollout.inspect, …): docs/protocol.md.'],
    run: runCall,
  },
];

async function engineVersion(): Promise<string> {
  const guest = await loadGuest();
  const envelope = JSON.parse(guest.call(0, 'version', '{}')) as { value?: { version?: string } };
  return envelope.value?.version ?? 'unknown';
}

async function runCall(args: string[], options: CliOptions): Promise<number> {
  const [method, input = '{}', ...rest] = args;
  if (method === undefined || method === '') throw new UsageError('call needs a METHOD');
  if (rest.length > 0) throw new UsageError(`call takes METHOD [JSON], got an extra argument '${rest[0]}'`);
  const guestOptions: GuestOptions = {
    workspace: options.workspace, writable: options.writable, allowHardLinks: options.allowHardLinks,
  };
  // /state is mounted when the home exists; `call` never creates it.
  if (isDirectory(options.home)) guestOptions.state = options.home;
  // The home is never reachable through /workspace (home_dir.ts).
  const { hidden } = homeInWorkspace(options.workspace, { path: options.home, label: options.homeLabel ?? `--home ${options.home}` });
  if (hidden.length > 0) guestOptions.hideInWorkspace = hidden;
  const guest = await loadGuest(guestOptions);
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

/** One line for the terminal, its control characters made visible (an engine or server text may carry them). */
const oneLine = terminalLine;

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
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

/** A flag whose values are a protocol enum (generated from core/protocol.json). */
function oneOf(flag: CliEnumFlag, value: string | undefined): string | undefined {
  const problem = value === undefined ? undefined : enumFlagProblem(flag, value);
  if (problem !== undefined) throw new UsageError(problem);
  return value;
}

function integer(flag: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,10}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${flag} ${value}: expected an integer from ${min} to ${max}`);
  }
  return Number(value);
}

/** --trust / --trust=trusted → true, --trust=untrusted → false, absent → undefined. */
function trustFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'trusted' && value !== 'untrusted') {
    throw new UsageError(`--trust=${value}: expected trusted or untrusted`);
  }
  return value === 'trusted';
}

/**
 * The cwd of each workspace environment a --config file names must exist in the workspace, or
 * the command stops with a usage error (it used to be accepted silently). The primary one is
 * used as the --cwd default (commands.ts sets the primary cwd from --cwd, or the workspace root),
 * and --cwd replaces it.
 */
function applyConfigCwds(options: CliOptions): void {
  if (options.config === undefined) return;
  const envs = readConfigFile(options.config)['environments'];
  if (!Array.isArray(envs)) return;
  envs.forEach((env, i) => {
    if (!isObject(env) || typeof env['cwd'] !== 'string') return;
    if (i === 0 && options.cwd !== undefined) return;
    if (env['fs'] !== undefined && env['fs'] !== 'workspace') return;
    guestCwd(options.workspace, env['cwd'], `--config ${options.config}: environments[${i}].cwd`);
    if (i === 0) options.cwd = env['cwd'];
  });
}

function baseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url ${value}: not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url ${value}: expected http or https`);
  if (url.username !== '' || url.password !== '') throw new UsageError('--base-url: credentials in the URL are not allowed (use --api-key-env)');
  return value;
}

/** A price in USD per million tokens: up to 8 integer and 6 fraction digits (exact in JSON). */
function price(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,8}(\.\d{1,6})?$/.test(value)) throw new UsageError(`--${flag} ${value}: expected USD per million tokens, e.g. 1.25`);
  return Number(value);
}

function replayFlags(values: Record<string, string | boolean | undefined>): ReplayFlags {
  const str = (k: OptionName): string | undefined => values[k] as string | undefined;
  const flags: ReplayFlags = {};
  if (values['requests'] === true) flags.requests = true;
  if (str('cache-ttl-ms') !== undefined) flags.cacheTtlMs = integer('cache-ttl-ms', str('cache-ttl-ms'), 300_000, 0, 86_400_000);
  if (str('top') !== undefined) flags.top = integer('top', str('top'), 10, 0, 1_000_000);
  const prices = {
    input: price('price-input', str('price-input')), cached_input: price('price-cached', str('price-cached')),
    cache_write: price('price-cache-write', str('price-cache-write')), output: price('price-output', str('price-output')),
  };
  const given = Object.fromEntries(Object.entries(prices).filter(([, v]) => v !== undefined)) as ReplayFlags['prices'];
  if (given !== undefined && Object.keys(given).length > 0) flags.prices = given;
  return flags;
}

/**
 * Options with an optional value (`--trust`, `--trust=untrusted`): a bare flag gets its default
 * value, so parseArgs sees `--trust=trusted`. A separate word after it (`--trust untrusted`)
 * would be a stray argument, and is refused with the spelling to use.
 */
function expandOptionalValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const o = OPTIONS.find((d) => d.optional && arg === `--${d.name}`);
    if (o === undefined) {
      out.push(arg);
      continue;
    }
    const next = argv[i + 1];
    const allowed = (o.arg ?? '').split('|');
    if (next !== undefined && allowed.includes(next)) {
      throw new UsageError(`--${o.name} takes its value after '=': --${o.name}=${next}`);
    }
    out.push(`--${o.name}=${o.optional?.bare ?? ''}`);
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  const parseOptions: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'V' },
  };
  for (const o of OPTIONS) {
    parseOptions[o.name] = { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) };
  }
  let parsed;
  try {
    parsed = parseArgs({ args: expandOptionalValues(argv), allowPositionals: true, strict: true, options: parseOptions });
  } catch (e) {
    // parseArgs' messages go on with advice about `--`; keep the first sentence.
    const message = e instanceof Error ? e.message.split('. To specify')[0] : undefined;
    throw new UsageError(message || 'bad arguments');
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const { positionals } = parsed;
  if (values['help'] || positionals[0] === 'help') {
    // `agentctx help [CMD]`, `agentctx [CMD] --help`: one command's help, or the global one.
    const target = positionals[0] === 'help' ? positionals[1] : positionals[0];
    if (positionals[0] === 'help' && positionals.length > 2) throw new UsageError('help takes one COMMAND');
    if (target === undefined) {
      process.stdout.write(globalHelp(COMMANDS, OPTIONS, terminalColumns()));
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === target);
    if (!command) throw new UsageError(`unknown command '${target}'; the commands: ${COMMANDS.map((c) => c.name).join(', ')}`);
    process.stdout.write(commandHelp(command, OPTIONS, terminalColumns()));
    return 0;
  }
  if (values['version']) {
    process.stdout.write(`agentctx ${await engineVersion()}\n`);
    return 0;
  }
  const [name, ...args] = positionals;
  if (name === undefined) throw new UsageError('missing COMMAND');
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command '${name}'`);
  for (const o of OPTIONS) {
    if (values[o.name] !== undefined && !command.options.includes(o.name)) {
      throw new UsageError(`${name} does not take --${o.name}`);
    }
  }
  if (args.length > command.maxArgs) {
    const extra = args.slice(command.maxArgs).map((a) => `'${a}'`).join(', ');
    const shape = command.usage.slice(name.length + 1).replace('[OPTIONS] ', '');
    throw new UsageError(command.maxArgs === 0
      ? `${name} takes no arguments, got ${extra}`
      : `${name} takes ${shape}, got the extra argument${args.length - command.maxArgs > 1 ? 's' : ''} ${extra}` +
        (shape.includes('PROMPT') ? ' (quote a PROMPT of several words)' : ''));
  }
  const str = (k: OptionName): string | undefined => values[k] as string | undefined;
  const options: CliOptions = {
    workspace: directory('--workspace', str('workspace') ?? process.cwd()),
    // Empty, or not a directory: a usage error naming --home or AGENTCTX_HOME (home_dir.ts),
    // for the commands that use a home.
    ...((h) => ({ home: h.path, homeLabel: h.label }))(command.options.includes('home') ? chooseHome(str('home')) : noHome),
    writable: values['writable'] === true,
    allowHardLinks: values['allow-hardlinks'] === true,
    // Unset: chosen from the session's provider (flag or --config), commands.ts modelFor.
    apiKeyEnv: str('api-key-env'),
    json: values['json'] === true,
    interactive: values['interactive'] === true,
    maxRetries: integer('max-retries', str('max-retries'), 4, 0, 100),
    retryBaseMs: integer('retry-base-ms', str('retry-base-ms'), 1000, 0, 600_000),
    requestTimeoutMs: integer('request-timeout-ms', str('request-timeout-ms'), 300_000, 1, 86_400_000),
    port: integer('port', str('port'), 0, 0, 65535),
    mcp: (values['mcp'] as unknown as string[] | undefined) ?? [],
    features: parseFeatures((values['feature'] as unknown as string[] | undefined) ?? []),
  };
  const optional: [keyof CliOptions, string | boolean | undefined][] = [
    ['cwd', str('cwd')],
    ['config', str('config') === undefined ? undefined : resolve(str('config') as string)],
    ['trust', trustFlag(str('trust'))],
    ['sandbox', oneOf('sandbox', str('sandbox'))],
    ['approval', oneOf('approval', str('approval'))],
    ['agentsRefresh', oneOf('agents-refresh', str('agents-refresh'))],
    ['model', str('model')],
    ['provider', oneOf('provider', str('provider'))],
    ['baseUrl', baseUrl(str('base-url'))],
    ['script', str('script')],
    ['dumpRequests', str('dump-requests') === undefined ? undefined : resolve(str('dump-requests') as string)],
    ['format', oneOf('format', str('format'))],
    ['clock', str('clock')],
  ];
  for (const [key, value] of optional) {
    if (value !== undefined) (options as unknown as Record<string, unknown>)[key] = value;
  }
  if (command.name === 'replay') options.replay = replayFlags(values);
  if (options.model === '') throw new UsageError('--model needs a slug');
  if (options.apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(options.apiKeyEnv)) throw new UsageError(`--api-key-env ${options.apiKeyEnv}: not a variable name`);
  if (command.options.includes('config')) applyConfigCwds(options);
  return command.run(args, options);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UsageError || e instanceof HostInputError) {
      process.stderr.write(`agentctx: ${oneLine(e.message)}${e instanceof UsageError ? " (see 'agentctx --help')" : ''}\n`);
      process.exitCode = 2;
    } else if (e instanceof Error && ['AgentctxHostError', 'EngineError', 'RolloutLockedError'].includes(e.name) && 'code' in e) {
      // RolloutLockedError: another process appends to the rollout (`rollout_locked`, exit 1).
      process.stderr.write(`agentctx: ${String(e.code)}: ${oneLine(e.message)}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`agentctx: internal: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
      process.exitCode = 1;
    }
  },
);
