// SPDX-License-Identifier: MIT
// MCP servers in the CLI (docs/mcp.md), end to end through the built `agentctx` with scripted
// mock turns: @modelcontextprotocol/server-everything (a devDependency; skipped with a message
// when absent) lists its tools in a stable order and echoes back into the next request; its
// post-start list change costs nothing under the default `defer`; the repository's fixture
// server (tests/mcp/fixture_server.mjs) adds a tool on demand, crashes, and sleeps; a server
// that never starts is left out with a warning; approval is refused where nobody can answer,
// with the setting named; bad settings are usage errors before anything starts.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, loadHost, runCli, tempTree } from './helpers.mjs';

await loadHost();

const FIXTURE = join(REPO, 'tests/mcp/fixture_server.mjs');
const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const NO_EVERYTHING = !existsSync(EVERYTHING) && 'devDependency @modelcontextprotocol/server-everything is not installed (npm ci)';
const NO_FILESYSTEM = !existsSync(FILESYSTEM) && 'devDependency @modelcontextprotocol/server-filesystem is not installed (npm ci)';
const node = process.execPath;
const fixtureServer = (extra = {}) => ({ command: node, args: [FIXTURE], ...extra });
const everythingFlag = `everything=${node} ${EVERYTHING} stdio`;

const call = (name, args = {}) => ({ submit: `#mock-call:${name}=${JSON.stringify(args)}` });

/** Runs `run --script` in a fresh tree; returns the result, the dumped bodies and the JSON lines. */
async function session({ script, config, flags = [], json = true }) {
  const tree = tempTree({ 'ws/a.txt': 'a\n' });
  after(tree.cleanup);
  const dir = tree.dir;
  writeFileSync(join(dir, 'script.jsonl'), script.map((s) => JSON.stringify(s)).join('\n') + '\n');
  const args = ['run', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), '--script', join(dir, 'script.jsonl'),
    '--dump-requests', join(dir, 'dump'), ...(json ? ['--json'] : []), ...flags];
  if (config !== undefined) {
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    args.push('--config', join(dir, 'config.json'));
  }
  const r = await runCli(args, { cwd: dir, timeoutMs: 60000 });
  const dumpDir = join(dir, 'dump');
  const bodies = existsSync(dumpDir) ? readdirSync(dumpDir).sort().map((f) => readFileSync(join(dumpDir, f), 'utf8')) : [];
  const lines = json ? r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)) : [];
  return { r, bodies, lines, dir };
}

const inputOf = (body) => body.slice(0, body.indexOf('],"tools":'));
const toolsOf = (body) => JSON.stringify(JSON.parse(body).tools);
const hostRecords = (lines, type) => lines.filter((l) => l.type === 'host' && l.event.type === type).map((l) => l.event);
const outputs = (lines) => lines.filter((l) => l.type === 'event' && l.event.type === 'item_done' && l.event.item.type === 'function_call_output')
  .map((l) => l.event.item.output);

function assertExtends(bodies) {
  for (let i = 1; i < bodies.length; i++) {
    assert.ok(inputOf(bodies[i]).startsWith(inputOf(bodies[i - 1])), `request ${i + 1} extends request ${i} byte for byte`);
    assert.equal(toolsOf(bodies[i]), toolsOf(bodies[i - 1]), `request ${i + 1} advertises the same tools`);
  }
}

test('--help says what --mcp starts and where it runs', async () => {
  const r = await runCli(['--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout.replace(/\s+/g, ' '), /--mcp NAME=COMMAND… .*MCP servers run on the host, outside the WASI sandbox, with your rights/);
});

test('server-everything: inspect lists its tools in one stable order', { skip: NO_EVERYTHING }, async () => {
  const tree = tempTree({ 'ws/a.txt': 'a\n' });
  after(tree.cleanup);
  const inspect = () => runCli(['inspect', '--workspace', join(tree.dir, 'ws'), '--mcp', everythingFlag], { timeoutMs: 60000 });
  const [one, two] = [await inspect(), await inspect()];
  assert.equal(one.code, 0, one.stderr);
  const names = JSON.parse(one.stdout).tools.map((t) => t.name).filter((n) => n.startsWith('mcp__'));
  assert.ok(names.includes('mcp__everything__echo') && names.includes('mcp__everything__get-sum'));
  assert.deepEqual(names, [...names].sort());
  assert.equal(toolsOf(two.stdout), toolsOf(one.stdout), 'the same bytes on every start');
});

test('server-everything: a scripted call to echo comes back in the next request; every request extends the one before', { skip: NO_EVERYTHING }, async () => {
  const { r, bodies, lines } = await session({
    script: [call('mcp__everything__echo', { message: 'hi there' }), { submit: 'and now?' }],
    flags: ['--mcp', everythingFlag, '--approval', 'never'],
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(bodies.length, 3);
  assert.ok(bodies[1].includes('"type":"function_call_output"') && bodies[1].includes('"output":"Echo: hi there"'));
  assert.equal(JSON.parse(bodies[0]).tool_choice ?? 'auto', 'auto');
  assertExtends(bodies);
  const ready = hostRecords(lines, 'mcp_server');
  assert.equal(ready.length, 1);
  assert.equal(ready[0].state, 'ready');
  assert.ok(ready[0].tools.includes('echo'));
});

test('without approval a script cannot run an MCP tool: the model reads which setting allows it', { skip: NO_EVERYTHING }, async () => {
  const { r, lines } = await session({ script: [call('mcp__everything__echo', { message: 'x' })], flags: ['--mcp', everythingFlag] });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(outputs(lines), [
    'error: mcp__everything__echo was not run: MCP tools run outside the sandbox and need approval, and nobody can answer here ' +
    '(a --script runs); to allow it, set "approved_tools": ["echo"] under mcp_servers.everything in the --config file, or --approval never',
  ]);
});

const SCRIPT_PTY = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));

test('on a terminal the REPL asks once: "a" (always) is an answer, never a message, and the next call runs unasked', { skip: (NO_EVERYTHING || (!SCRIPT_PTY && 'util-linux script (a pseudo-terminal) is not installed')) }, async () => {
  const tree = tempTree({ 'ws/a.txt': 'a\n' });
  after(tree.cleanup);
  const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const cli = [node, join(REPO, 'wasm/dist/wasi/cli.js'), 'run', '--interactive', '--json', '--workspace', join(tree.dir, 'ws'),
    '--home', join(tree.dir, 'home'), '--mcp', everythingFlag].map(quote).join(' ');
  // Each line is typed once the terminal shows what it answers: a line typed before the question
  // would be discarded (docs/mcp.md, "Approval"; mcp_approval_tty.test.mjs).
  const QUESTION = 'Run it? [y]es / [n]o / [a]lways for this tool:';
  const steps = [
    [/one turn per line/, '#mock-call:mcp__everything__echo={"message":"one"}\n'],
    [QUESTION, 'a\n'],
    [/"output":"Echo: one"[^]*\n> /, '#mock-call:mcp__everything__echo={"message":"two"}\n'],
    [/"output":"Echo: two"[^]*\n> /, '/exit\n'],
  ];
  const { spawn } = await import('node:child_process');
  const out = await new Promise((resolve, reject) => {
    const child = spawn(SCRIPT_PTY, ['-qec', cli, '/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let text = '';
    const typeWhenShown = () => {
      while (steps.length > 0 && (typeof steps[0][0] === 'string' ? text.includes(steps[0][0]) : steps[0][0].test(text))) {
        child.stdin.write(steps.shift()[1]);
      }
    };
    child.stdout.setEncoding('utf8').on('data', (d) => {
      text += d;
      typeWhenShown();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, text });
    });
  });
  assert.equal(out.code, 0, out.text);
  assert.equal(out.text.split('Run it? [y]es / [n]o / [a]lways for this tool:').length - 1, 1, out.text);
  assert.deepEqual([...out.text.matchAll(/"output":"(Echo: [a-z]+)"/g)].map((m) => m[1]), ['Echo: one', 'Echo: two']);
  assert.ok(!out.text.includes('"role":"user","content":[{"type":"input_text","text":"a"}]'), 'the answer was not sent to the model');
});

test('a tool added on demand: one update between steps; native (acting as defer on a model without the channel) keeps every request a byte extension, apply advertises it', async () => {
  const script = [call('mcp__fixture__add_tool', { name: 'later' }), { submit: 'hello' }];
  const config = (extra) => ({ mcp_servers: { fixture: fixtureServer({ approved_tools: ['add_tool'] }) }, ...extra });
  const deferred = await session({ script, config: config({}) });
  assert.equal(deferred.r.code, 0, deferred.r.stderr);
  assert.deepEqual(hostRecords(deferred.lines, 'mcp_tools_changed').map(({ added, removed, changed, tool_policy }) => ({ added, removed, changed, tool_policy })),
    [{ added: ['mcp__fixture__later'], removed: [], changed: [], tool_policy: 'native' }]);
  assert.equal(deferred.bodies.length, 3);
  assertExtends(deferred.bodies);
  assert.ok(!toolsOf(deferred.bodies[2]).includes('mcp__fixture__later'));
  assert.ok(deferred.bodies[1].includes('will become callable after the next context compaction:\\n- mcp__fixture__later: Added on request (later).'));

  // With the endpoint's in-conversation tool changes on, the change goes through the channel:
  // the frozen array, an `additional_tools` item appended, and the mock calls the tool at once.
  const native = await session({
    script: [call('mcp__fixture__add_tool', { name: 'later' }), call('mcp__fixture__later')],
    config: config({ provider_features: { tool_changes: true } }),
  });
  assert.equal(native.r.code, 0, native.r.stderr);
  assertExtends(native.bodies);
  assert.ok(!toolsOf(native.bodies.at(-1)).includes('mcp__fixture__later'), 'the tools array stays frozen');
  assert.ok(native.bodies[1].includes('{"type":"additional_tools","role":"developer","tools":[{"type":"function","name":"mcp__fixture__later"'), native.bodies[1]);
  assert.ok(native.bodies.at(-1).includes('"name":"mcp__fixture__later","arguments"'), 'the added tool was called in the turn that asked');

  const applied = await session({ script, config: config({ tool_policy: 'apply' }) });
  assert.equal(applied.r.code, 0, applied.r.stderr);
  assert.ok(!toolsOf(applied.bodies[0]).includes('mcp__fixture__later'));
  assert.ok(toolsOf(applied.bodies[1]).includes('"name":"mcp__fixture__later"'), 'the next step advertises it');
});

test('a server killed twice: a clear tool error each time, one restart, then its tools say they are gone; the session goes on', async () => {
  const { r, lines } = await session({
    script: [
      call('mcp__fixture__crash'), call('mcp__fixture__echo', { text: 'back' }),
      call('mcp__fixture__crash'), call('mcp__fixture__echo', { text: 'gone?' }), { submit: 'still here?' },
    ],
    config: { mcp_servers: { fixture: fixtureServer() } },
    flags: ['--approval', 'never'],
  });
  assert.equal(r.code, 0, r.stderr);
  const out = outputs(lines);
  assert.equal(out.length, 4);
  assert.match(out[0], /^error: MCP tool `crash` of server `fixture` failed: the server exited during the call \(stderr: fixture: exiting on request\); it is being restarted for the next call$/);
  assert.equal(out[1], 'echo: back');
  assert.match(out[2], /the server exited during the call .*its tools are unavailable for the rest of this session$/);
  assert.match(out[3], /^error: MCP tool `echo` of server `fixture` failed: MCP server `fixture` exited .*already restarted once/);
  assert.deepEqual(hostRecords(lines, 'mcp_server').map((e) => e.state), ['ready', 'restarting', 'failed']);
  assert.equal(lines.filter((l) => l.type === 'turn_complete' && l.reason === 'completed').length, 5);
});

test('a server that never starts is left out with a warning naming it; a slow tool times out', async () => {
  const { r, bodies, lines } = await session({
    script: [call('mcp__fixture__slow', { ms: 5000 })],
    config: {
      mcp_servers: {
        fixture: fixtureServer({ tool_timeout_ms: 300, approved_tools: ['slow'] }),
        sleepy: { command: node, args: ['-e', 'setInterval(() => {}, 1000)'], startup_timeout_ms: 300 },
      },
    },
  });
  assert.equal(r.code, 0, r.stderr);
  const failed = hostRecords(lines, 'mcp_server').find((e) => e.server === 'sleepy');
  assert.equal(failed.state, 'failed');
  assert.match(failed.message, /^warning: MCP server `sleepy` did not start within 300 ms \(startup_timeout_ms\): .*; the session goes on without its tools$/);
  assert.ok(!toolsOf(bodies[0]).includes('mcp__sleepy__'));
  assert.deepEqual(outputs(lines), ['error: MCP tool `slow` of server `fixture` timed out after 300 ms (tool_timeout_ms)']);
});

test('human output: the warning for a server that did not start is one stderr line', async () => {
  const { r } = await session({
    script: [{ submit: 'hi' }], json: false,
    config: { mcp_servers: { ghost: { command: '/nonexistent/mcp-server' } } },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^agentctx: warning: MCP server `ghost` (did not start|exited during startup).*the session goes on without its tools$/m);
});

test('server-filesystem limited to a directory reads a file there for the model', { skip: NO_FILESYSTEM }, async () => {
  const tree = tempTree({ 'shared/notes.md': '# shared notes\n' });
  after(tree.cleanup);
  const file = join(tree.dir, 'shared/notes.md');
  const { r, lines } = await session({
    script: [call('mcp__fs__read_text_file', { path: file })],
    config: { mcp_servers: { fs: { command: node, args: [FILESYSTEM, join(tree.dir, 'shared')], approved_tools: ['read_text_file'] } } },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(outputs(lines), ['# shared notes\n']);
});

test('bad MCP settings are usage errors, before any server starts', async () => {
  const tree = tempTree({ 'ws/a.txt': 'a\n' });
  after(tree.cleanup);
  const run = async (config, extra = []) => {
    writeFileSync(join(tree.dir, 'c.json'), JSON.stringify(config));
    return runCli(['run', '--workspace', join(tree.dir, 'ws'), '--home', join(tree.dir, 'home'), '--config', join(tree.dir, 'c.json'), ...extra, 'hi']);
  };
  const cases = [
    [{ mcp_servers: { x: { command: 'a', url: 'http://127.0.0.1:9/' } } }, [], /mcp_servers\.x: give exactly one of command and url/],
    [{ mcp_servers: { x: { command: 'a', argz: [] } } }, [], /mcp_servers\.x\.argz: unknown key/],
    [{ mcp_servers: { x: { command: 'a', args: 'b' } } }, [], /mcp_servers\.x\.args: expected an array of strings/],
    [{ mcp_servers: { x: { url: 'ftp://h/' } } }, [], /mcp_servers\.x\.url: expected an http or https URL/],
    [{ mcp_servers: { x: { command: 'a', tool_timeout_ms: 0 } } }, [], /mcp_servers\.x\.tool_timeout_ms: expected an integer/],
    [{}, ['--mcp', 'nocommand'], /--mcp nocommand: expected NAME=COMMAND \[ARGS…\] or NAME=URL/],
    [{}, ['--mcp', 'x="unterminated'], /--mcp x="unterminated: unterminated " quote/],
  ];
  for (const [config, extra, message] of cases) {
    const r = await run(config, extra);
    assert.equal(r.code, 2, `${JSON.stringify(config)} ${extra.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  assert.ok(!existsSync(join(tree.dir, 'home/sessions')) || readdirSync(join(tree.dir, 'home/sessions')).length === 0, 'no session was started');
});

test("a config's own host tools stay beside the MCP tools, and a script's `tools` update keeps the MCP ones", async () => {
  const { r, bodies } = await session({
    script: [{ submit: 'one' }, { update: { tools: [{ name: 'local_b', description: 'B' }] } }, { submit: 'two' }],
    config: { tools: [{ name: 'local_a' }], tool_policy: 'apply', mcp_servers: { fixture: fixtureServer() } },
  });
  assert.equal(r.code, 0, r.stderr);
  const names = (body) => JSON.parse(body).tools.map((t) => t.name).filter((n) => n.startsWith('local_') || n.startsWith('mcp__'));
  const mcp = ['mcp__fixture__add_tool', 'mcp__fixture__crash', 'mcp__fixture__echo', 'mcp__fixture__fail', 'mcp__fixture__image',
    'mcp__fixture__remove_tool', 'mcp__fixture__slow', 'mcp__fixture__structured'];
  assert.deepEqual(names(bodies[0]), ['local_a', ...mcp]);
  assert.deepEqual(names(bodies[1]), ['local_b', ...mcp]);
});
