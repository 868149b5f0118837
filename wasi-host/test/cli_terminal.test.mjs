// SPDX-License-Identifier: MIT
// The CLI in a terminal (wasi-host/src/help.ts, text_wrap.ts, status_line.ts, usage_meter.ts,
// output.ts, repl_input.ts; docs/cli.md), run as a process:
//  - help fits the width (80 columns off a terminal, $COLUMNS, the terminal's own), breaks only
//    between words, gives each flag one or two lines at 80 columns, and a command's help shows
//    only that command's meaning of a flag; every flag stays in the global help;
//  - on a pseudo-terminal, a turn shows a status line while the model works, the reasoning
//    before the answer, and one line of tokens and cost after it; none of that off a terminal
//    or with --json;
//  - the REPL's /status: model, provider, context used and left, the session's cost;
//  - a reader that goes away (`| head -1`) ends the CLI quietly: no EPIPE, no stack trace.
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, DIST, loadHost, runCli, tempTree } from './helpers.mjs';

await loadHost();
const tmp = tempTree({ 'ws/notes.txt': 'hello\nworld\n' });
after(tmp.cleanup);
const ws = join(tmp.dir, 'ws');
const COMMANDS = ['run', 'resume', 'inspect', 'replay', 'serve-mock', 'call'];
const HAS_PYTHON = spawnSync('python3', ['-c', 'import pty, termios, fcntl'], { stdio: 'ignore' }).status === 0;

/** The whitespace-separated words of a help, without shell continuations. */
const words = (text) => text.split(/\s+/).filter((w) => w !== '' && w !== '\\');

/** The help of `command` (undefined: the global one) at $COLUMNS `columns` ('' = unset). */
async function help(command, columns) {
  const r = await runCli(command === undefined ? ['--help'] : [command, '--help'], { env: { COLUMNS: columns } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  return r.stdout;
}

/** The Options section of a help: [usage line, ...its help lines] per flag. */
function optionEntries(text) {
  const start = text.indexOf('\nOptions:\n') + '\nOptions:\n'.length;
  const lines = text.slice(start, text.indexOf('\n\n', start)).split('\n');
  const entries = [];
  for (const line of lines) {
    if (/^ {2}(-\w, | {4})--/.test(line)) entries.push([line]);
    else entries[entries.length - 1].push(line);
  }
  return entries;
}

describe('help fits the terminal', () => {
  for (const command of [undefined, ...COMMANDS]) {
    const name = command ?? 'the global help';
    test(`${name}: at most 80 columns, no word broken, one or two lines per flag`, async () => {
      const unset = await help(command, '');
      const at80 = await help(command, '80');
      assert.equal(unset, at80, 'off a terminal without $COLUMNS the width is 80');
      for (const line of at80.split('\n')) assert.ok(line.length <= 80, `${line.length} columns: ${line}`);
      // A word broken across lines would be two words here and one at 200 columns.
      const wide = await help(command, '200');
      assert.deepEqual(words(at80), words(wide));
      assert.ok(wide.split('\n').some((l) => l.length > 80), 'a wider terminal gets longer lines');
      for (const [usage, ...rest] of optionEntries(at80)) {
        // A usage too wide for the column has its help on the next lines.
        const helpLines = usage.trimEnd().length > 31 && !/ {2}\S/.test(usage.trim()) ? rest.length : rest.length + 1;
        assert.ok(helpLines <= 2, `${usage.trim()}: ${helpLines} lines of help`);
      }
      // Narrower: only a single word (or quoted shell word) too long for the line may pass the width.
      const at50 = await help(command, '50');
      for (const line of at50.split('\n')) {
        const body = line.trim().replace(/ \\$/, '');
        if (line.length > 50) assert.ok(words(body).length === 1 || /^'[^']*'$|^"[^"]*"$/.test(body), `${line.length} columns: ${line}`);
      }
      assert.deepEqual(words(at50), words(wide));
    });
  }

  test('a flag\'s help in a command\'s help is that command\'s meaning only', async () => {
    const options = async (command) => Object.fromEntries(optionEntries(await help(command, '80'))
      .map(([usage, ...rest]) => [usage.trim().split(/\s+/).find((w) => w.startsWith('--')), [usage, ...rest].join(' ').replace(/\s+/g, ' ')]));
    const replay = await options('replay');
    assert.match(replay['--provider'], /cache rules and prices/);
    assert.doesNotMatch(replay['--provider'], /rendered/);
    assert.match(replay['--dump-requests'], /reconstructed/);
    assert.doesNotMatch(replay['--json'], /effects|host records/);
    for (const command of ['run', 'resume']) {
      const own = await options(command);
      assert.doesNotMatch(own['--provider'], /replay|cache rules|prices/, command);
      assert.doesNotMatch(own['--dump-requests'], /replay|reconstructed/, command);
      assert.doesNotMatch(own['--json'], /replay|report/, command);
      assert.doesNotMatch(own['--interactive'], /\brun\b|resume:/, command);
      assert.doesNotMatch(own['--max-retries'], /run, resume/, command);
    }
    const inspect = await options('inspect');
    assert.doesNotMatch(inspect['--provider'], /replay/);
    assert.doesNotMatch(inspect['--json'], /replay|effects/);
    assert.doesNotMatch(inspect['--format'], /^inspect:/);
    assert.doesNotMatch((await options('call'))['--writable'], /sandbox/);
  });

  test('every flag is in the global help, the details in docs/cli.md', async () => {
    const text = await help(undefined, '80');
    for (const flag of ['--workspace DIR', '--cwd PATH', '--home DIR', '--config FILE.json', '--mcp NAME=COMMAND…',
      '--writable', '--allow-hardlinks', '--trust[=trusted|untrusted]', '--sandbox MODE', '--approval POLICY',
      '--agents-refresh MODE', '--model SLUG', '--provider API', '--feature NAME=on|off', '--base-url URL',
      '--api-key-env VAR', '--json', '-i, --interactive', '--script FILE.jsonl', '--dump-requests DIR',
      '--max-retries N', '--retry-base-ms MS', '--request-timeout-ms MS', '--format FMT', '--port N',
      '--clock CLOCK', '--requests', '--cache-ttl-ms MS', '--price-input USD', '--price-cached USD',
      '--price-cache-write USD', '--price-output USD', '--top N', '-h, --help', '-V, --version']) {
      assert.ok(text.includes(flag), `the help lacks ${flag}`);
    }
    assert.match(text, /docs\/cli\.md/);
  });
});

/**
 * Runs the CLI with stdin, stdout and stderr on one pseudo-terminal `columns` wide (python3's pty
 * module), typing `input`; resolves {code, out} with everything the terminal received.
 */
function runOnPty(args, { input = '', columns = 80, env = {}, cwd } = {}) {
  const script = [
    'import fcntl, os, pty, select, struct, subprocess, sys, termios',
    'cols, feed = int(sys.argv[1]), sys.argv[2].encode()',
    'master, slave = pty.openpty()',
    "fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 24, cols, 0, 0))",
    'p = subprocess.Popen(sys.argv[3:], stdin=slave, stdout=slave, stderr=slave, start_new_session=True)',
    'os.close(slave)',
    'if feed: os.write(master, feed)',
    "out = b''",
    'while True:',
    '    try:',
    '        data = os.read(master, 65536)',
    '    except OSError:',
    '        break',
    '    if not data:',
    '        break',
    '    out += data',
    'sys.stdout.buffer.write(out)',
    'sys.exit(p.wait())',
  ].join('\n');
  const base = { ...process.env };
  delete base.AGENTCTX_HOME;
  delete base.OPENAI_API_KEY;
  delete base.COLUMNS;
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', script, String(columns), input, process.execPath, CLI, ...args], {
      cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { out += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** What a terminal shows of `out`: erased-line sequences applied, CR LF as LF. */
function screen(out) {
  return out.replace(/\r\n/g, '\n').split('\n').map((line) => line.split('\r\x1b[2K').pop()).join('\n');
}

describe('a turn on a terminal', { skip: HAS_PYTHON ? false : 'python3 with the pty module is needed' }, () => {
  test('a status line while the model works, the reasoning before the answer, tokens after the turn', async () => {
    const home = join(tmp.dir, 'pty1');
    const r = await runOnPty(['run', '--workspace', ws, '--home', home, 'hello there'], { cwd: ws });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /\r\x1b\[2Kworking \d+s · Ctrl-C to interrupt/);
    const shown = screen(r.out);
    assert.ok(!shown.includes('Ctrl-C to interrupt'), `the status line is erased:\n${JSON.stringify(shown)}`);
    const reasoning = shown.indexOf('• Mock plan: reply');
    const answer = shown.indexOf('Mock reply to: hello there');
    assert.ok(reasoning >= 0 && answer >= 0, shown);
    assert.ok(reasoning < answer, `the reasoning comes first:\n${shown}`);
    assert.equal(shown.split('• Mock plan: reply').length, 2, `the reasoning is shown once:\n${shown}`);
    assert.match(shown, /\n• turn: [\d,]+ input tokens \(0 cached, 0 written\), [\d,]+ output; no prices for mock \(set cache_prices in --config\)\n/);
    assert.ok(shown.indexOf('• turn:') > answer, shown);
  });

  test('the cost at the config\'s cache_prices, from the engine', async () => {
    const config = join(tmp.dir, 'prices.json');
    writeFileSync(config, JSON.stringify({ cache_prices: { input: 2, cached_input: 0.5, output: 8 } }));
    const r = await runOnPty(['run', '--workspace', ws, '--home', join(tmp.dir, 'pty2'), '--config', config, 'Please read notes.txt'], { cwd: ws });
    assert.equal(r.code, 0, r.out);
    const line = /\n• turn: ([\d,]+) input tokens \(([\d,]+) cached, 0 written\), ([\d,]+) output; cost \$(\d+\.\d{4}), session \$(\d+\.\d{4})\n/.exec(screen(r.out));
    assert.ok(line, screen(r.out));
    const [input, cached, output] = line.slice(1, 4).map((n) => Number(n.replace(/,/g, '')));
    assert.ok(input > 0 && output > 0);
    // Two requests (the read_file call, then the reply), priced by the OpenAI rule, USD per million.
    assert.equal(line[4], ((((input - cached) * 2) + (cached * 0.5) + (output * 8)) / 1e6).toFixed(4));
    assert.equal(line[5], line[4], 'the first turn is the whole session');
  });

  test('--json on a terminal: no status line, no turn line', async () => {
    const r = await runOnPty(['run', '--json', '--workspace', ws, '--home', join(tmp.dir, 'pty3'), 'hello'], { cwd: ws });
    assert.equal(r.code, 0, r.out);
    assert.ok(!r.out.includes('Ctrl-C to interrupt'), r.out);
    assert.ok(!r.out.includes('• turn:'), r.out);
  });

  test('the REPL: a status line and a turn line per turn, /status', async () => {
    const r = await runOnPty(['run', '-i', '--workspace', ws, '--home', join(tmp.dir, 'pty4')], { cwd: ws, input: 'one\ntwo\n/status\n/exit\n' });
    assert.equal(r.code, 0, r.out);
    const shown = screen(r.out);
    assert.equal(shown.match(/\n• turn: /g)?.length, 2, shown);
    assert.equal(r.out.match(/working 0s · Ctrl-C to interrupt/g)?.length >= 2, true, r.out);
    assert.match(shown, /session {3}2 turns, /);
  });
});

test('off a terminal: no status line and no turn line on stderr', async () => {
  const r = await runCli(['run', '--workspace', ws, '--home', join(tmp.dir, 'plain'), 'hello'], { cwd: ws });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Mock reply to: hello\n');
  assert.ok(!r.stderr.includes('Ctrl-C to interrupt'), r.stderr);
  assert.ok(!r.stderr.includes('• turn:'), r.stderr);
  assert.ok(!r.stderr.includes('\x1b'), JSON.stringify(r.stderr));
});

describe('/status in the REPL', () => {
  test('model, provider, context used (window unknown), the session\'s tokens; no prices for the mock', async () => {
    const r = await runCli(['run', '-i', '--workspace', ws, '--home', join(tmp.dir, 's1')], { cwd: ws, input: '/status\nhello\n/status\n' });
    assert.equal(r.code, 0, r.stderr);
    const [before, afterTurn] = r.stderr.split(/^model {5}/m).slice(1).map((s) => `model     ${s}`);
    assert.match(before, /^model {5}mock \(provider responses, the embedded mock, no network\)\ncontext {3}no response yet in this process\nsession {3}0 turns, 0 input tokens \(0 cached, 0 written\), 0 output; no prices for mock \(set cache_prices in --config\)\n/);
    assert.match(afterTurn, /^model {5}mock \(provider responses, the embedded mock, no network\)\ncontext {3}[\d,]+ tokens used; window unknown \(set model\.context_window in --config\)\nsession {3}1 turn, [\d,]+ input tokens \(0 cached, 0 written\), [\d,]+ output; no prices for mock/);
    assert.equal(r.stdout, 'Mock reply to: hello\n');
    assert.match(r.stderr, /^agentctx: one turn per line; \/compact \/status \/help \/exit/m);
  });

  test('with a context window and prices: tokens left and the cost so far', async () => {
    const config = join(tmp.dir, 'window.json');
    writeFileSync(config, JSON.stringify({ model: { slug: 'mock', context_window: 200000 }, cache_prices: { input: 1, cached_input: 0.1, output: 4 } }));
    const r = await runCli(['run', '-i', '--config', config, '--workspace', ws, '--home', join(tmp.dir, 's2')], { cwd: ws, input: 'hello\nPlease read notes.txt\n/status\n/help\n' });
    assert.equal(r.code, 0, r.stderr);
    const m = /^context {3}([\d,]+) of 200,000 tokens used, ([\d,]+) left \((\d+)%\)\nsession {3}2 turns, ([\d,]+) input tokens \(([\d,]+) cached, 0 written\), ([\d,]+) output; cost \$(\d+\.\d{4})$/m.exec(r.stderr);
    assert.ok(m, r.stderr);
    const [used, left] = [m[1], m[2]].map((n) => Number(n.replace(/,/g, '')));
    assert.equal(used + left, 200000);
    const [input, cached, output] = [m[4], m[5], m[6]].map((n) => Number(n.replace(/,/g, '')));
    assert.equal(m[7], ((((input - cached) * 1) + (cached * 0.1) + (output * 4)) / 1e6).toFixed(4));
    assert.match(r.stderr, /^ {2}\/status {4}model, provider, context used and left, session tokens and cost$/m);
  });
});

describe('a reader that goes away', () => {
  /** `agentctx ARGS | READER` through bash; resolves {code (the CLI's), stdout, stderr}. */
  const piped = (args, reader, cwd) => new Promise((resolve, reject) => {
    const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    const child = spawn('bash', ['-c', `${quoted} | ${reader}; exit "\${PIPESTATUS[0]}"`], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });

  test('--help | head -1: the first line, nothing on stderr; a reader gone before the help: exit 141', async () => {
    for (const args of [['--help'], ['help', 'run']]) {
      const head = await piped(args, 'head -1');
      assert.match(head.stdout, /^Usage: agentctx /);
      assert.equal(head.stderr, '', args.join(' '));
      assert.ok([0, 141].includes(head.code), `exit ${head.code}`);
      // `true` reads nothing and is gone long before the CLI writes: the write meets EPIPE.
      const gone = await piped(args, 'true');
      assert.equal(gone.stderr, '', args.join(' '));
      assert.equal(gone.code, 141, args.join(' '));
    }
  });

  test('a run whose output is cut by head -1 exits 141 without a stack trace', async () => {
    const script = join(tmp.dir, 'many.jsonl');
    writeFileSync(script, Array.from({ length: 60 }, (_, i) => JSON.stringify({ submit: `line ${i}` })).join('\n'));
    const home = join(tmp.dir, 'pipe');
    const r = await piped(['run', '--script', script, '--workspace', ws, '--home', home], 'head -1', ws);
    assert.equal(r.stdout, 'Mock reply to: line 0\n');
    assert.doesNotMatch(r.stderr, /EPIPE|Error|at .*\.js:\d+/, r.stderr);
    assert.equal(r.code, 141, r.stderr);
  });
});

describe('units', () => {
  test('wrap: breaks only between words; a word wider than the line stands alone', async () => {
    const { wrap, wrapShell, twoColumns, terminalColumns } = await import(join(DIST, 'text_wrap.js'));
    assert.deepEqual(wrap('one two three four', 9), ['one two', 'three', 'four']);
    assert.deepEqual(wrap('a supercalifragilistic b', 10, '  ', '    '), ['  a', '    supercalifragilistic', '    b']);
    assert.deepEqual(twoColumns([['-x', 'short help'], ['--much-too-long-flag', 'its help']], 60, { maxLeft: 10 }),
      ['  -x          short help', '  --much-too-long-flag', '              its help']);
    assert.deepEqual(wrapShell(`agentctx run --price-input 2 'a quoted prompt' x`, 30, '  ', '      '),
      ['  agentctx run \\', '      --price-input 2 \\', "      'a quoted prompt' x"]);
    assert.equal(terminalColumns({ isTTY: true, columns: 120 }, {}), 120);
    assert.equal(terminalColumns({ isTTY: false }, { COLUMNS: '100' }), 100);
    assert.equal(terminalColumns({ isTTY: false }, { COLUMNS: 'wide' }), 80);
    assert.equal(terminalColumns({ isTTY: true, columns: 20 }, {}), 40);
  });

  test('the status line: drawn in place, erased once, counting from the turn start', async () => {
    const { StatusLine, elapsedText } = await import(join(DIST, 'status_line.js'));
    assert.deepEqual([0, 59_999, 65_000, 3_725_000].map(elapsedText), ['0s', '59s', '1m 05s', '1h 02m']);
    let now = 10_000;
    const written = [];
    const line = new StatusLine({ write: (s) => written.push(s) }, { now: () => now, intervalMs: 60_000 });
    line.show(now - 3000);
    now += 2000;
    line.show(now - 5000);
    line.clear();
    line.clear();
    assert.deepEqual(written, ['\r\x1b[2Kworking 3s · Ctrl-C to interrupt', '\r\x1b[2Kworking 5s · Ctrl-C to interrupt', '\r\x1b[2K']);
    assert.equal(line.shown, false);
  });

  test('the usage meter sums a turn and the session; the lines say what they know', async () => {
    const { UsageMeter, turnLine, statusText } = await import(join(DIST, 'usage_meter.js'));
    const meter = new UsageMeter();
    const usage = (input, cached, written, output) => ({ type: 'event', event: { type: 'token_usage', input_tokens: input, cached_tokens: cached, cache_creation_tokens: written, output_tokens: output, context_tokens: input + output, context_window: 10_000 } });
    meter.startTurn();
    meter.observe(usage(1200, 0, 1024, 10));
    meter.startTurn();
    meter.observe(usage(1300, 1024, 0, 20));
    meter.observe({ type: 'event', event: { type: 'text_delta', delta: 'x' } });
    meter.observe(usage(1400, 1280, 0, 30));
    assert.deepEqual(meter.turn, { requests: 2, input: 2700, cached: 2304, written: 0, output: 50 });
    assert.deepEqual(meter.session, { requests: 3, input: 3900, cached: 2304, written: 1024, output: 60 });
    assert.equal(meter.turns, 2);
    assert.equal(turnLine(meter.turn, { turn: 0.00123, session: 0.004 }, 'gpt-5.5'),
      '• turn: 2,700 input tokens (2,304 cached, 0 written), 50 output; cost $0.0012, session $0.0040');
    assert.equal(turnLine(meter.turn, undefined, 'mock'),
      '• turn: 2,700 input tokens (2,304 cached, 0 written), 50 output; no prices for mock (set cache_prices in --config)');
    assert.equal(statusText({ model: 'm', provider: 'anthropic', endpoint: 'https://x', meter, cost: 0.5 }), [
      'model     m (provider anthropic, https://x)',
      'context   1,430 of 10,000 tokens used, 8,570 left (85%)',
      'session   2 turns, 3,900 input tokens (2,304 cached, 1,024 written), 60 output; cost $0.5000',
      '',
    ].join('\n'));
  });
});
