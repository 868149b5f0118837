// SPDX-License-Identifier: MIT
// `agentctx run`, `resume` and `inspect` on the embedded mock model (no network): output
// modes, rollouts written by the guest under <home>/sessions, --dump-requests, the global and
// project AGENTS.md, --interactive, resume of a rollout (in place and copied), bad input.
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFiles, loadHost, readJsonl, runCli, tempTree } from './helpers.mjs';

await loadHost();
const tmp = tempTree({
  'ws/README.md': '# demo\nline two\nline three\n',
  'ws/src/main.rs': 'fn main() {}\n',
  'ws/AGENTS.md': 'reply in uppercase\n',
  'home/AGENTS.md': 'reply prefix: [home]\n',
});
after(tmp.cleanup);
const ws = join(tmp.dir, 'ws');
const rollouts = (home) => listFiles(join(home, 'sessions')).map((f) => join(home, 'sessions', f));

describe('run on the mock model', () => {
  test('a prompt streams the reply to stdout, progress to stderr, and writes a rollout', async () => {
    const home = join(tmp.dir, 'h1');
    const r = await runCli(['run', '--workspace', ws, '--home', home, 'Please read README.md.'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Read README.md: 3 lines.\n');
    assert.match(r.stderr, /^agentctx: session [0-9a-f-]{36}, rollout .*\/sessions\/rollout-.*\.jsonl$/m);
    assert.match(r.stderr, /^• read_file \{"path":"README.md"\}$/m);
    const [file] = rollouts(home);
    const lines = readJsonl(file);
    assert.equal(lines[0].type, 'session_meta');
    assert.equal(lines[0].payload.cwd, '/workspace');
    const types = lines.map((l) => l.payload?.type ? `${l.type}:${l.payload.type}` : l.type);
    assert.ok(types.includes('event_msg:task_complete'), types.join(','));
    // The read happened and the file is intact (read-only workspace).
    const outputs = lines.filter((l) => l.type === 'response_item' && l.payload.type === 'function_call_output');
    assert.equal(outputs[0].payload.output, 'L1: # demo\nL2: line two\nL3: line three');
  });

  test('--json prints effects as JSON lines, model_request without its body', async () => {
    const home = join(tmp.dir, 'h2');
    const r = await runCli(['run', '--json', '--workspace', ws, '--home', home, 'hello'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines[0].type, 'host');
    assert.equal(lines[0].event.type, 'session');
    const request = lines.find((l) => l.type === 'model_request');
    assert.equal(request.body, undefined);
    assert.ok(request.body_bytes > 100);
    assert.ok(lines.some((l) => l.type === 'event' && l.event.type === 'text_delta'));
    assert.ok(!lines.some((l) => l.type === 'persist'));
    assert.deepEqual(lines.at(-1), { type: 'turn_complete', turn_id: 'turn-1', reason: 'completed', last_agent_message: 'Mock reply to: hello' });
  });

  test('global AGENTS.md from --home, project AGENTS.md only with --trust', async () => {
    const home = join(tmp.dir, 'home');
    const plain = await runCli(['run', '--workspace', ws, '--home', home, 'hello'], { cwd: ws });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, '[home] Mock reply to: hello\n');
    const trusted = await runCli(['run', '--trust', '--workspace', ws, '--home', home, 'hello'], { cwd: ws });
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(trusted.stdout, '[home] MOCK REPLY TO: HELLO\n');
  });

  test('--dump-requests writes every body exactly as sent', async () => {
    const home = join(tmp.dir, 'h3');
    const dump = join(tmp.dir, 'dump');
    const r = await runCli(['run', '--json', '--dump-requests', dump, '--workspace', ws, '--home', home,
      'Please read src/main.rs'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(dump), ['0001.json', '0002.json']);
    const sizes = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l)).filter((l) => l.type === 'model_request').map((l) => l.body_bytes);
    assert.deepEqual(sizes, ['0001.json', '0002.json'].map((f) => readFileSync(join(dump, f)).length));
    const second = JSON.parse(readFileSync(join(dump, '0002.json'), 'utf8'));
    assert.equal(second.model, 'mock');
    assert.ok(second.input.some((i) => i.type === 'function_call_output' && i.output === 'L1: fn main() {}'));
  });

  test('--interactive reads one turn per line until EOF', async () => {
    const home = join(tmp.dir, 'h4');
    const r = await runCli(['run', '-i', '--workspace', ws, '--home', home], { cwd: ws, input: 'first\n\nsecond\n/exit\nignored\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Mock reply to: first\nMock reply to: second\n');
  });

  test('a writable workspace with a write_file call', async () => {
    const w = tempTree({ 'a.txt': 'A' });
    after(w.cleanup);
    const home = join(tmp.dir, 'h5');
    const r = await runCli(['run', '--writable', '--workspace', w.dir, '--home', home, '#mock-write:out/new.txt=hello there'], { cwd: w.dir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Wrote out/new.txt.\n');
    assert.equal(readFileSync(join(w.dir, 'out/new.txt'), 'utf8'), 'hello there');
  });
});

describe('resume', () => {
  test('continues a rollout under the home in place; a torn last line is dropped first', async () => {
    const home = join(tmp.dir, 'h6');
    const first = await runCli(['run', '--workspace', ws, '--home', home, 'hello'], { cwd: ws });
    assert.equal(first.code, 0, first.stderr);
    const [file] = rollouts(home);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text + '{"timestamp":"2026-');
    const r = await runCli(['resume', '--workspace', ws, '--home', home, file, 'again'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Mock reply to: again\n');
    assert.match(r.stderr, /warning: rollout_torn_line/);
    assert.deepEqual(rollouts(home), [file]);
    const after2 = readFileSync(file, 'utf8');
    assert.ok(after2.startsWith(text) && !after2.includes('{"timestamp":"2026-\n'));
    const lines = readJsonl(file); // every line parses
    assert.equal(lines.filter((l) => l.type === 'event_msg' && l.payload.type === 'user_message').length, 2);
    // The history of both turns went into the second request.
    assert.ok(lines.filter((l) => l.type === 'response_item').length > 4);
  });

  test('a rollout outside the home is copied into <home>/sessions, never changed', async () => {
    const home = join(tmp.dir, 'h7');
    const first = await runCli(['run', '--workspace', ws, '--home', join(tmp.dir, 'h7-src'), 'hello'], { cwd: ws });
    assert.equal(first.code, 0, first.stderr);
    const [src] = rollouts(join(tmp.dir, 'h7-src'));
    const original = readFileSync(src, 'utf8');
    const r = await runCli(['resume', '--json', '--workspace', ws, '--home', home, src, 'again'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(src, 'utf8'), original);
    const [copy] = rollouts(home);
    assert.ok(readFileSync(copy, 'utf8').startsWith(original));
    const session = JSON.parse(r.stdout.split('\n')[0]);
    assert.equal(session.event.rollout, copy);
    assert.equal(session.event.copied_from, src);
  });

  // A bad last line that ends in a newline must not make the rollout un-resumable.
  test('Regression: a garbage last line with its newline resumes, and resumes again', async () => {
    const home = join(tmp.dir, 'h6b');
    const first = await runCli(['run', '--workspace', ws, '--home', home, 'hello'], { cwd: ws });
    assert.equal(first.code, 0, first.stderr);
    const [file] = rollouts(home);
    writeFileSync(file, readFileSync(file, 'utf8') + 'garbage that is not json\n');
    for (const prompt of ['again', 'and again']) {
      const r = await runCli(['resume', '--workspace', ws, '--home', home, file, prompt], { cwd: ws });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `Mock reply to: ${prompt}\n`);
    }
    assert.ok(!readFileSync(file, 'utf8').includes('garbage'));
    readJsonl(file); // every line parses
  });

  // A failed resume of an outside rollout leaves no copy of it in <home>/sessions.
  test('Regression: a failed resume of an outside rollout leaves no copy behind', async () => {
    const home = join(tmp.dir, 'h7b');
    const first = await runCli(['run', '--workspace', ws, '--home', join(tmp.dir, 'h7b-src'), 'hello'], { cwd: ws });
    assert.equal(first.code, 0, first.stderr);
    const [src] = rollouts(join(tmp.dir, 'h7b-src'));
    const lines = readFileSync(src, 'utf8').split('\n');
    const broken = join(tmp.dir, 'broken.jsonl');
    writeFileSync(broken, [lines[0], 'not json at all', ...lines.slice(1)].join('\n'));
    const r = await runCli(['resume', '--workspace', ws, '--home', home, broken, 'again'], { cwd: ws });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /rollout/);
    assert.deepEqual(existsSync(join(home, 'sessions')) ? rollouts(home) : [], []);
  });

  test('resume without PROMPT is a REPL; bad rollouts are one-line errors', async () => {
    const home = join(tmp.dir, 'h8');
    await runCli(['run', '--workspace', ws, '--home', home, 'hello'], { cwd: ws });
    const [file] = rollouts(home);
    const r = await runCli(['resume', '--workspace', ws, '--home', home, file], { cwd: ws, input: 'more\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Mock reply to: more\n');
    const bad = join(tmp.dir, 'bad.jsonl');
    writeFileSync(bad, '{"type":"turn_context","payload":{}}\n');
    const b = await runCli(['resume', '--workspace', ws, '--home', home, bad, 'x'], { cwd: ws });
    assert.equal(b.code, 2);
    assert.match(b.stderr, /^agentctx: [^\n]*no session_meta[^\n]*\n$/);
    const missing = await runCli(['resume', '--workspace', ws, '--home', home, join(tmp.dir, 'nope.jsonl')], { cwd: ws });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^agentctx: [^\n]*cannot read the rollout\n$/);
  });
});

describe('inspect', () => {
  test('--format request prints the exact next body without calling a model or writing a rollout', async () => {
    const home = join(tmp.dir, 'h9');
    const r = await runCli(['inspect', '--workspace', ws, '--home', home, '--format', 'request', 'hello'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.equal(body.model, 'mock');
    assert.ok(body.input.some((i) => i.role === 'user' && i.content[0].text === 'hello'));
    assert.equal(existsSync(home), false);
    // A non-mock model needs no key to inspect.
    const real = await runCli(['inspect', '--model', 'gpt-5', '--workspace', ws, '--home', home], { cwd: ws });
    assert.equal(real.code, 0, real.stderr);
    assert.equal(JSON.parse(real.stdout).model, 'gpt-5');
  });

  test('--format agents lists sources and text; --json gives the engine JSON', async () => {
    const home = join(tmp.dir, 'home');
    const r = await runCli(['inspect', '--trust', '--workspace', ws, '--home', home, '--format', 'agents'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Sources:\n {2}\/state\/AGENTS\.md \(global\)\n {2}\/workspace\/AGENTS\.md \(environment workspace, cwd \/workspace\)\n/);
    assert.match(r.stdout, /reply prefix: \[home\]/);
    const j = await runCli(['inspect', '--json', '--workspace', ws, '--home', home, '--format', 'agents'], { cwd: ws });
    assert.deepEqual(JSON.parse(j.stdout).sources.map((s) => s.path), ['/state/AGENTS.md']);
  });

  test('--format world-state prints the snapshot; --cwd moves the environment', async () => {
    const r = await runCli(['inspect', '--json', '--workspace', ws, '--home', join(tmp.dir, 'h10'), '--cwd', 'src', '--format', 'world-state'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).environment.environments.workspace.cwd, '/workspace/src');
  });
});

describe('bad input', () => {
  const cases = [
    [['run', '--sandbox', 'bogus', 'x'], /--sandbox bogus: expected read-only, workspace-write, danger-full-access/],
    [['run', '--approval', 'sometimes', 'x'], /--approval sometimes: expected/],
    [['run', '--agents-refresh', 'always', 'x'], /--agents-refresh always: expected selection, probe/],
    [['run', '--max-retries', '-1', 'x'], /--max-retries/],
    [['run', '--base-url', 'ftp://x', 'x'], /--base-url ftp:\/\/x: expected http or https/],
    [['run', '--base-url', 'http://u:p@127.0.0.1:1/v1', 'x'], /credentials in the URL/],
    [['run', '--config', '/nonexistent.json', 'x'], /--config .*cannot read/],
    [['run', '--cwd', 'nope', 'x'], /--cwd nope: no such directory/],
    [['run', '--script', 'a.jsonl', 'x'], /PROMPT or --script FILE, not both/],
    [['run', '--model', 'gpt-5', 'x'], /OPENAI_API_KEY is not set/],
    [['run', '--model', 'gpt-5', '--api-key-env', 'MY_KEY', 'x'], /MY_KEY is not set/],
    [['run', '--format', 'agents', 'x'], /run does not take --format/],
    [['replay', '--workspace', '.', 'x.jsonl'], /replay does not take --workspace/],
    [['replay'], /replay needs a rollout FILE/],
    [['inspect', '--format', 'nope'], /--format nope: expected request, agents, world-state/],
    [['run', '--provider', 'gemini', 'x'], /--provider gemini: expected responses, chat, anthropic/],
    [['serve-mock', '--clock', 'step:x'], /--clock step:x: expected wall or step:<ms>/],
    [['serve-mock', '--port', '70000'], /--port 70000/],
  ];
  for (const [args, re] of cases) {
    test(args.join(' '), async () => {
      const r = await runCli(args, { cwd: ws, env: { AGENTCTX_HOME: join(tmp.dir, 'hbad') } });
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^agentctx: [^\n]+\n$/);
      assert.match(r.stderr, re);
    });
  }

  test('the API key variable follows a provider set in --config (ANTHROPIC_API_KEY)', async () => {
    const cfg = join(tmp.dir, 'anthropic-config.json');
    writeFileSync(cfg, JSON.stringify({ provider: 'anthropic' }));
    const r = await runCli(['run', '--model', 'claude-x', '--config', cfg, 'x'], { cwd: ws, env: { AGENTCTX_HOME: join(tmp.dir, 'hkey') } });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^agentctx: ANTHROPIC_API_KEY is not set \(the API key for https:\/\/api\.anthropic\.com\/v1;/);
  });

  test('an invalid --config value is an engine error (exit 1), and leaves no empty rollout', async () => {
    const cfg = join(tmp.dir, 'bad-config.json');
    writeFileSync(cfg, JSON.stringify({ approval_policy: 42 }));
    const home = join(tmp.dir, 'h11');
    const r = await runCli(['run', '--config', cfg, '--workspace', ws, '--home', home, 'x'], { cwd: ws });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^agentctx: invalid_config: [^\n]+\n$/m);
    assert.deepEqual(rollouts(home), []);
  });
});
