// SPDX-License-Identifier: MIT
// The CLI explains itself (wasi-host/src/help.ts, repl_input.ts, untrusted_note.ts,
// serve_mock.ts), run as a process:
//  - `agentctx CMD --help` and `agentctx help CMD` print that command's usage, only its own
//    flags, and examples; the global help lists the commands; no help cites a design document;
//  - an untrusted workspace with project AGENTS.md files says once how many were not read (run,
//    the REPL, inspect --format agents; a host record with --json);
//  - the REPL prints a one-line banner, answers /help, refuses an unknown /command without
//    sending it to the model, and sends //text as /text;
//  - serve-mock: a port in use is a usage error naming --port; a request without its
//    conversation gets the API's own 400; GET /v1/models lists the mock models; Ctrl-C stops it
//    at once, with a keep-alive connection open or a large request being answered;
//  - the replay table groups numbers by thousands, its top misses fit 100 columns, a rollout
//    without usage has no cost, and one repeated line is "1 repeated line".
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, REPO, listFiles, loadHost, readJsonl, runCli, tempTree } from './helpers.mjs';

await loadHost();
const tmp = tempTree({
  'ws/.git/HEAD': 'ref: refs/heads/main\n',
  'ws/AGENTS.md': 'root rules\n',
  'ws/app/AGENTS.md': 'app rules\n',
  'ws/app/blank/AGENTS.md': '   \n',
  'ws/app/main.rs': 'fn main() {}\n',
  'plain/README.md': 'no AGENTS files here\n',
});
after(tmp.cleanup);
const ws = join(tmp.dir, 'ws');
const FIXTURES = join(REPO, 'tests/fixtures/rollouts');
const NOTE = 'agentctx: note: found 2 AGENTS.md files, not read: the workspace is untrusted — pass --trust';

const COMMANDS = {
  run: { own: ['--interactive', '--script FILE.jsonl', '--workspace DIR', '--trust', '--max-retries N'], not: ['--port', '--price-input', '--format'] },
  resume: { own: ['--workspace DIR', '--dump-requests DIR'], not: ['--script', '--port', '--top'] },
  inspect: { own: ['--format FMT', '--workspace DIR', '--provider API'], not: ['--interactive', '--port', '--price-input'] },
  replay: { own: ['--requests', '--price-input USD', '--cache-ttl-ms MS', '--top N', '--json'], not: ['--workspace', '--trust', '--port'] },
  'serve-mock': { own: ['--port N', '--clock CLOCK'], not: ['--workspace', '--json', '--model'] },
  call: { own: ['--workspace DIR', '--home DIR'], not: ['--model', '--port', '--json'] },
};

describe('help', () => {
  for (const [name, { own, not }] of Object.entries(COMMANDS)) {
    test(`${name} --help and help ${name}: its usage, its own flags, examples`, async () => {
      const r = await runCli([name, '--help']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '');
      assert.match(r.stdout, new RegExp(`^Usage: agentctx ${name}\\b`));
      const options = r.stdout.slice(r.stdout.indexOf('\nOptions:\n'), r.stdout.indexOf('\n\n', r.stdout.indexOf('\nOptions:\n') + 1));
      for (const flag of [...own, '-h, --help']) assert.ok(options.includes(flag), `${name} help lacks ${flag}`);
      for (const flag of not) assert.ok(!options.includes(flag), `${name} help shows ${flag}, not one of its flags`);
      assert.match(r.stdout, /^Examples?:\n {2}agentctx /m);
      assert.match(r.stdout, new RegExp(`^ {2}agentctx ${name}\\b`, 'm'));
      assert.ok(!/SPEC|ARCHITECTURE/.test(r.stdout));
      assert.equal((await runCli(['help', name])).stdout, r.stdout);
    });
  }

  test('the global help lists the commands and how to get one command\'s help', async () => {
    const r = await runCli(['--help']);
    assert.equal(r.code, 0);
    for (const name of Object.keys(COMMANDS)) assert.match(r.stdout, new RegExp(`^ {2}${name}\\b`, 'm'));
    assert.match(r.stdout, /^ {2}help \[COMMAND\]/m);
    assert.match(r.stdout, /agentctx help COMMAND/);
    assert.ok(!/SPEC|ARCHITECTURE/.test(r.stdout));
    assert.equal((await runCli(['help'])).stdout, r.stdout);
    const bad = await runCli(['help', 'frob']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^agentctx: unknown command 'frob'; the commands: run, resume, inspect, replay, serve-mock, call/);
  });
});

describe('an untrusted workspace with AGENTS.md files', () => {
  test('run says once how many were not read; --trust reads them and says nothing', async () => {
    const home = join(tmp.dir, 'h1');
    const r = await runCli(['run', '--workspace', ws, '--cwd', 'app', '--home', home, 'hello'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    // Two files on the root → cwd path (the blank one below the cwd is not on it).
    assert.equal(r.stderr.split('\n').filter((l) => l === NOTE).length, 1, r.stderr);
    const trusted = await runCli(['run', '--trust', '--workspace', ws, '--cwd', 'app', '--home', home, 'hello'], { cwd: ws });
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.ok(!trusted.stderr.includes('not read'), trusted.stderr);
    const plain = await runCli(['run', '--workspace', join(tmp.dir, 'plain'), '--home', home, 'hello']);
    assert.ok(!plain.stderr.includes('not read'), plain.stderr);
  });

  test('the REPL says it once, not per line; --json makes it a host record', async () => {
    const home = join(tmp.dir, 'h2');
    const r = await runCli(['run', '-i', '--workspace', ws, '--cwd', 'app', '--home', home], { cwd: ws, input: 'one\ntwo\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.split('\n').filter((l) => l === NOTE).length, 1, r.stderr);
    const json = await runCli(['run', '--json', '--workspace', ws, '--cwd', 'app', '--home', home, 'hi'], { cwd: ws });
    assert.equal(json.code, 0, json.stderr);
    assert.equal(json.stderr, '');
    const notes = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l)).filter((l) => l.type === 'host' && l.event.type === 'note');
    assert.deepEqual(notes.map((n) => n.event), [{ type: 'note', code: 'agents_md_not_read', message: NOTE.replace('agentctx: note: ', '') }]);
  });

  test('inspect --format agents says it too', async () => {
    const r = await runCli(['inspect', '--format', 'agents', '--workspace', ws, '--cwd', 'app', '--home', join(tmp.dir, 'h4')], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `${NOTE}\n`);
    assert.match(r.stdout, /^Sources:\n {2}\(none\)/);
  });
});

describe('the REPL', () => {
  test('a banner, /help, an unknown /command refused, //text sent as /text', async () => {
    const home = join(tmp.dir, 'h3');
    const r = await runCli(['run', '-i', '--trust', '--workspace', ws, '--home', home], {
      cwd: ws, input: '/help\n/frob now\n//slash first\nhello\n/exit\n',
    });
    assert.equal(r.code, 0, r.stderr);
    const err = r.stderr.split('\n');
    assert.equal(err.filter((l) => /^agentctx: one turn per line; \/compact .*\/help .*\/exit/.test(l)).length, 1, r.stderr);
    assert.ok(err.includes('REPL commands:'), r.stderr);
    assert.ok(err.includes('agentctx: not a REPL command: /frob now (/help lists them; //text sends /text)'), r.stderr);
    // Only the two real turns reached the model (the mock reads `/slash` as a file name).
    assert.equal(r.stdout, 'read_file failed: not_capable: /slash\nMock reply to: hello\n');
    const [file] = listFiles(join(home, 'sessions')).map((f) => join(home, 'sessions', f));
    const said = readJsonl(file).filter((l) => l.type === 'event_msg' && l.payload.type === 'user_message').map((l) => l.payload.message);
    assert.deepEqual(said, ['/slash first', 'hello']);
  });
});

/** Starts serve-mock on `port`; resolves {child, url} once it listens. */
function serveMock(port) {
  const child = spawn(process.execPath, [CLI, 'serve-mock', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\/v1\n/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`serve-mock exited ${code}`)));
    setTimeout(() => reject(new Error('serve-mock did not start')), 15000).unref();
  });
}

describe('serve-mock', () => {
  test('a port in use is a usage error that names --port', async () => {
    const blocker = createServer();
    await new Promise((r) => blocker.listen(0, '127.0.0.1', r));
    try {
      const { port } = blocker.address();
      const r = await runCli(['serve-mock', '--port', String(port)]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `agentctx: --port ${port}: 127.0.0.1:${port} is already in use; choose another port with --port N (--port 0 takes any free port)\n`);
    } finally {
      blocker.close();
    }
  });

  test('the API\'s 400 without a conversation, GET /v1/models, and Ctrl-C stops it at once', async () => {
    const { child, url } = await serveMock(0);
    try {
      const post = (path, body, headers = {}) => fetch(url + path, { method: 'POST', body: JSON.stringify(body), headers });
      const responses = await post('/v1/responses', { model: 'mock' });
      assert.equal(responses.status, 400);
      assert.deepEqual(await responses.json(), { error: { message: "Missing required parameter: 'input'.", type: 'invalid_request_error', param: 'input', code: 'missing_required_parameter' } });
      const chat = await post('/v1/chat/completions', { model: 'mock' });
      assert.equal(chat.status, 400);
      assert.equal((await chat.json()).error.param, 'messages');
      const messages = await post('/v1/messages', { model: 'mock', max_tokens: 10 }, { 'anthropic-version': '2023-06-01' });
      assert.equal(messages.status, 400);
      assert.deepEqual(await messages.json(), { type: 'error', error: { type: 'invalid_request_error', message: 'messages: Field required' } });
      const ok = await post('/v1/responses', { model: 'mock', input: 'hi' });
      assert.equal(ok.status, 200);

      const models = await (await fetch(`${url}/v1/models`)).json();
      assert.equal(models.object, 'list');
      assert.deepEqual(models.data.map((m) => [m.id, m.object]), [['mock', 'model'], ['mock-1', 'model']]);
      const anthropic = await (await fetch(`${url}/v1/models`, { headers: { 'anthropic-version': '2023-06-01' } })).json();
      assert.deepEqual(anthropic.data.map((m) => [m.id, m.type]), [['mock', 'model'], ['mock-1', 'model']]);

      // A keep-alive connection is open (fetch pools it); Ctrl-C still ends the process at once.
      const started = Date.now();
      const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
      child.kill('SIGINT');
      const { code } = await exited;
      assert.ok(Date.now() - started < 2000, `exited after ${Date.now() - started} ms`);
      assert.equal(code, 0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('Ctrl-C ends serve-mock at once while a large request is being answered', async () => {
    // 32 000 call/output pairs (64 001 items, under the item limit): parsing and answering take
    // seconds, which the server's thread used to spend before it could see the signal.
    const input = [{ role: 'user', content: 'read them all' }];
    for (let i = 0; i < 32000; i++) {
      input.push({ type: 'function_call', name: 'read_file', call_id: `call_${i}`, arguments: JSON.stringify({ path: `/f${i}` }) });
      input.push({ type: 'function_call_output', call_id: `call_${i}`, output: 'L1: x\nL2: y' });
    }
    const body = JSON.stringify({ model: 'mock', input, stream: true });
    const { child, url } = await serveMock(0);
    try {
      const { port } = new URL(url);
      const answered = new Promise((resolve) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/responses', method: 'POST', headers: { 'content-length': Buffer.byteLength(body) } });
        req.on('response', (res) => resolve(`answered ${res.statusCode}`));
        req.on('error', (e) => resolve(`connection ended: ${e.code}`));
        req.end(body, () => setTimeout(() => resolve('sent'), 100)); // the whole body is with the server
      });
      assert.equal(await answered, 'sent');
      const started = Date.now();
      const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
      child.kill('SIGINT');
      const { code } = await exited;
      assert.ok(Date.now() - started < 1000, `exited after ${Date.now() - started} ms`);
      assert.equal(code, 0);
    } finally {
      child.kill('SIGKILL');
    }
  }, { timeout: 60000 });
});

describe('the replay table', () => {
  test('numbers grouped by thousands, top misses within 100 columns', async () => {
    const r = await runCli(['replay', join(FIXTURES, 'codex_0169_layout.jsonl')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^input tokens {10}9,250, cached 2,944 \(31\.82%\), output 60$/m);
    assert.match(r.stdout, /^idle TTL {14}300,000 ms$/m);
    const misses = r.stdout.slice(r.stdout.indexOf('top misses\n'));
    assert.match(misses, /^ {2}req-3 +21 +3,150 +3,072 +\$0\.0038 {2}model_changed \(model\)$/m);
    for (const line of misses.split('\n')) assert.ok(line.length <= 100, `${line.length} columns: ${line}`);
  });

  test('a rollout without token counts: no cost, the byte reuse still shown', async () => {
    const file = join(tmp.dir, 'no_usage.jsonl');
    const text = readFileSync(join(FIXTURES, 'codex_two_turns.jsonl'), 'utf8');
    writeFileSync(file, text.split('\n').filter((l) => !l.includes('"token_count"')).join('\n'));
    const r = await runCli(['replay', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^cost {18}no usage recorded — cost cannot be estimated$/m);
    assert.match(r.stdout, /^prompt reuse {10}\d+\.\d\d% of prompt bytes/m);
    assert.ok(!r.stdout.includes('$0.0000'), r.stdout);
  });

  test('one repeated usage line is "1 repeated line"', async () => {
    const file = join(tmp.dir, 'repeated.jsonl');
    const lines = readFileSync(join(FIXTURES, 'codex_0169_layout.jsonl'), 'utf8').split('\n');
    const usage = lines.findIndex((l) => l.includes('"token_usage_record"') || l.includes('"token_count"'));
    assert.ok(usage >= 0);
    lines.splice(usage + 1, 0, lines[usage]);
    writeFileSync(file, lines.join('\n'));
    const r = await runCli(['replay', '--json', file]);
    assert.equal(JSON.parse(r.stdout).summary.repeated_usage_lines, 1);
    assert.match((await runCli(['replay', file])).stdout, /, 1 repeated line skipped\)$/m);
  });
});
