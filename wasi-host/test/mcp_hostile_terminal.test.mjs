// SPDX-License-Identifier: MIT
// What a hostile MCP server or model endpoint sends never reaches the terminal raw (docs/mcp.md,
// "What a server cannot do"), end to end through the built `agentctx`: the hostile server
// (tests/mcp/hostile_server.mjs) over stdio and streamable HTTP puts CR, erase-line, cursor-up,
// OSC 52 (a clipboard write), C1 CSI, DEL and a bidi override into its tool names, descriptions,
// results, isError results, listing errors, stderr and HTTP error bodies; a model endpoint on the
// loopback answers 400 with the same in its message. Human output shows each as visible escapes
// (`\x1b`, `\r`, `\u009b`) and `--json` stdout keeps them JSON-escaped. And a tool the server
// drops during its own call ends its turn normally in the CLI (stdio and HTTP).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, REPO, loadHost, runCli, tempTree } from './helpers.mjs';
import { serveHttp } from '../../tests/mcp/hostile_server.mjs';

await loadHost();
const { mcpToolName } = await import('agentctx');

const HOSTILE = join(REPO, 'tests/mcp/hostile_server.mjs');
const { SPOOF_NAME } = await import(HOSTILE);
const node = process.execPath;
/** What a terminal acts on: C0 but TAB and LF, DEL, C1, bidi overrides and isolates. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

function assertTerminalSafe(text, where) {
  const m = RAW_CONTROL.exec(text);
  assert.equal(m, null, m && `${where} has a raw U+${m[0].codePointAt(0).toString(16).padStart(4, '0')} at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 60), m.index + 20))}`);
}

let http;
let httpError;
before(async () => {
  http = await serveHttp();
  httpError = await serveHttp({ error: true });
});
after(async () => {
  await http?.close();
  await httpError?.close();
});

/** Runs `run --script` in a fresh tree with the hostile servers; returns the result and the dumped bodies. */
async function session({ script, servers, json, flags = [] }) {
  const tree = tempTree({ 'ws/a.txt': 'a\n' });
  after(tree.cleanup);
  const dir = tree.dir;
  writeFileSync(join(dir, 'script.jsonl'), script.map((s) => JSON.stringify(s)).join('\n') + '\n');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ mcp_servers: servers }));
  const r = await runCli(['run', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), '--script', join(dir, 'script.jsonl'),
    '--dump-requests', join(dir, 'dump'), '--approval', 'never', '--config', join(dir, 'config.json'), ...(json ? ['--json'] : []), ...flags],
  { cwd: dir, timeoutMs: 60000 });
  const dumpDir = join(dir, 'dump');
  const bodies = existsSync(dumpDir) ? readdirSync(dumpDir).sort().map((f) => readFileSync(join(dumpDir, f), 'utf8')) : [];
  return { r, bodies };
}

const call = (name, args = {}) => ({ submit: `#mock-call:${name}=${JSON.stringify(args)}` });
const spoofed = () => mcpToolName('hostile', SPOOF_NAME);
const hostileScript = () => [
  call(spoofed()), call('mcp__hostile__fail'), call('mcp__hostile__break_listing'), call('mcp__hostile__crash'), { submit: 'still here?' },
];
const servers = () => ({
  hostile: { command: node, args: [HOSTILE] },
  noisy: { command: node, args: [HOSTILE, '--mode', 'start-noise'] },
  web: { url: http.url },
  broken: { url: httpError.url },
});

test('terminal text: every control character is visible; text, tabs, line ends and any script stay', async () => {
  const { terminalJson, terminalLine, terminalText } = await import(join(DIST, 'terminal_text.js'));
  assert.equal(terminalText('a\rb\u001b[2Kc\u0007\u009b2J\u007f\u202e\u0000'), 'a\\rb\\x1b[2Kc\\x07\\u009b2J\\x7f\\u202e\\x00');
  assert.equal(terminalText('line 1\r\nline 2\n\tindented, é 文字 🙂 \\x1b'), 'line 1\nline 2\n\tindented, é 文字 🙂 \\x1b');
  assert.equal(terminalLine('one\n  two\r\nthree\rfour'), 'one two three\\rfour');
  const json = terminalJson({ s: '\u001b]52;c;eA==\u0007\u009b\u007f\u2028\u202e' });
  assert.equal(json, '{"s":"\\u001b]52;c;eA==\\u0007\\u009b\\u007f\\u2028\\u202e"}');
  assert.deepEqual(JSON.parse(json), { s: '\u001b]52;c;eA==\u0007\u009b\u007f\u2028\u202e' }, 'the same JSON value');
  assertTerminalSafe(json, 'terminalJson');
});

test('the advertised name of the spoofing tool is sanitised and stable', () => {
  assert.equal(spoofed(), 'mcp__hostile__wipe_home___2K__1A__2K_read_docs');
});

test('human output: tool names, results, listing errors, stderr and HTTP errors of hostile servers reach the terminal escaped', async () => {
  const { r } = await session({ script: hostileScript(), servers: servers(), json: false });
  assert.equal(r.code, 0, r.stderr);
  assertTerminalSafe(r.stderr, 'stderr');
  assertTerminalSafe(r.stdout, 'stdout');
  // Each hostile text is there, made visible.
  const OSC52_SHOWN = '\\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\x07';
  assert.match(r.stderr, /warning: MCP server `noisy` .*\(stderr: starting \\r\\x1b\[2K\\x1b\[1A/);
  assert.match(r.stderr, /warning: MCP server `broken` did not start: .*bad request \\r\\x1b\[2K/);
  assert.match(r.stderr, /warning: MCP server `hostile`: listing its tools failed \(.*listing refused \\r\\x1b\[2K/);
  assert.match(r.stderr, /warning: MCP server `hostile` exited \(stderr: crashing \\r\\x1b\[2K/);
  assert.ok(r.stderr.includes(OSC52_SHOWN), r.stderr);
  assert.ok(r.stderr.includes('\\u009b2J\\x7f\\u202eflipped\\x08'), 'C1 CSI, DEL, the bidi override and BS are visible');
  assert.ok(r.stderr.includes(`• ${spoofed()} runs on MCP server hostile, outside the sandbox`));
});

test('--json: every line is JSON with no raw control character; the values are the servers\' own', async () => {
  const { r, bodies } = await session({ script: hostileScript(), servers: servers(), json: true });
  assert.equal(r.code, 0, r.stderr);
  assertTerminalSafe(r.stdout, '--json stdout');
  assertTerminalSafe(r.stderr, 'stderr');
  const lines = r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  const outputs = lines.filter((l) => l.type === 'event' && l.event.type === 'item_done' && l.event.item.type === 'function_call_output')
    .map((l) => l.event.item.output);
  assert.ok(outputs[0].startsWith('docs \r\u001b[2K'), 'the model reads what the server sent');
  assert.ok(outputs[0].includes('\u009b2J\u007f\u202eflipped'));
  const failed = lines.filter((l) => l.type === 'host' && l.event.type === 'mcp_server' && l.event.state === 'failed').map((l) => l.event.server).sort();
  assert.deepEqual(failed, ['broken', 'noisy']);
  assert.ok(bodies.length >= 5);
});

test('a model endpoint\'s 400 message reaches the terminal escaped (human and --json)', async () => {
  const { NOISE } = await import(HOSTILE);
  const endpoint = createServer(async (req, res) => {
    for await (const chunk of req) void chunk;
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'bad', message: `rejected ${NOISE}` } }));
  });
  await new Promise((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  after(() => {
    endpoint.closeAllConnections();
    endpoint.close();
  });
  const tree = tempTree({ 'ws/a.txt': 'a\n' });
  after(tree.cleanup);
  for (const json of [false, true]) {
    const r = await runCli(['run', '--base-url', `http://127.0.0.1:${endpoint.address().port}/v1`, '--model', 'gpt-5', '--max-retries', '0',
      '--workspace', join(tree.dir, 'ws'), '--home', join(tree.dir, `home-${json}`), ...(json ? ['--json'] : []), 'hello'],
    { cwd: tree.dir, timeoutMs: 30000 });
    assert.equal(r.code, 1, r.stderr);
    assertTerminalSafe(r.stderr, 'stderr');
    assertTerminalSafe(r.stdout, 'stdout');
    assert.match(r.stderr, /rejected \\r\\x1b\[2K\\x1b\[1A\\x1b\[2K\\r\\x1b\]52;c;/);
    if (json) assert.ok(r.stdout.split('\n').filter(Boolean).every((l) => JSON.parse(l)));
  }
});

for (const transport of ['stdio', 'http']) {
  test(`${transport}: a tool the server drops during its own call ends its turn normally; the removal follows between turns`, async () => {
    const server = transport === 'stdio' ? { command: node, args: [HOSTILE] } : { url: http.url };
    const { r, bodies } = await session({ script: [call('mcp__hostile__vanish'), { submit: 'and now?' }], servers: { hostile: server }, json: true });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    assert.deepEqual(lines.filter((l) => l.type === 'turn_complete').map((l) => l.reason), ['completed', 'completed']);
    assert.equal(bodies.length, 3, 'every request was sent');
    assert.ok(bodies[1].includes('"output":"vanish answered"'), bodies[1]);
    assert.ok(!bodies[1].includes('was removed while this call was running'));
    assert.ok(!r.stdout.includes('stale_delivery'));
    const changes = lines.filter((l) => l.type === 'host' && l.event.type === 'mcp_tools_changed').map((l) => l.event.removed);
    assert.deepEqual(changes, [['mcp__hostile__vanish']]);
  });
}
