// SPDX-License-Identifier: MIT
// Scripted sessions (`agentctx run --script FILE.jsonl`): the line format (parser unit tests
// against the built script.js), and a whole script through the CLI: host edits between turns,
// config updates with a workspace-relative cwd, tick_ms on the virtual clock, compact.
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, listFiles, loadHost, readJsonl, runCli, tempTree } from './helpers.mjs';

await loadHost();
const { parseScript } = await import(join(DIST, 'script.js'));
const tmp = tempTree({ 'ws/src/lib.rs': 'pub fn f() {}\n', 'ws/keep.txt': 'k\n' });
after(tmp.cleanup);
const ws = join(tmp.dir, 'ws');

describe('the script format', () => {
  test('every step type parses; blank lines are skipped', () => {
    const text = [
      '{"submit":"hello"}',
      '',
      '{"update":{"approval_policy":"never","sandbox":{"mode":"read-only"}}}',
      '{"update":{"cwd":"src"}}',
      '{"write":{"path":"notes/a.md","content":"x"}}',
      '{"remove":"notes"}',
      '{"tick_ms":1000}',
      '{"compact":true}',
    ].join('\n');
    assert.deepEqual(parseScript(text, 's.jsonl').map((s) => `${s.line}:${s.kind}`),
      ['1:submit', '3:update', '4:update', '5:write', '6:remove', '7:tick', '8:compact']);
  });

  const bad = [
    ['{"submit":1}', 's.jsonl:1: submit needs a string'],
    ['{"submit":"a","tick_ms":1}', 's.jsonl:1: each line needs exactly one of submit, update, write, remove, tick_ms, compact (got 2 keys)'],
    ['{}', 's.jsonl:1: each line needs exactly one of submit, update, write, remove, tick_ms, compact (got 0 keys)'],
    ['[1]', 's.jsonl:1: each line must be a JSON object'],
    ['{"frob":1}', 's.jsonl:1: unknown step "frob" (expected submit, update, write, remove, tick_ms or compact)'],
    ['{"update":[]}', 's.jsonl:1: update needs a config delta object'],
    ['{"write":{"path":"a"}}', 's.jsonl:1: write needs {"path": string, "content": string}'],
    ['{"write":{"path":"/etc/x","content":""}}', 's.jsonl:1: "/etc/x" must be a relative path in the workspace'],
    ['{"remove":"../x"}', 's.jsonl:1: "../x" leaves the workspace'],
    ['{"tick_ms":-1}', 's.jsonl:1: tick_ms needs a non-negative integer'],
    ['{"tick_ms":1.5}', 's.jsonl:1: tick_ms needs a non-negative integer'],
    ['{"compact":false}', 's.jsonl:1: compact needs true'],
  ];
  for (const [line, message] of bad) {
    test(`refuses ${line}`, () => {
      assert.throws(() => parseScript(line, 's.jsonl'), (e) => e.name === 'HostInputError' && e.message === message);
    });
  }

  test('invalid JSON names the line', () => {
    assert.throws(() => parseScript('{"submit":"a"}\n{oops', 's.jsonl'), /^HostInputError: s\.jsonl:2: invalid JSON/);
  });
});

describe('a scripted session', () => {
  test('host edits, updates, ticks and turns, in order, in one rollout', async () => {
    const home = join(tmp.dir, 'home');
    const file = join(tmp.dir, 'session.jsonl');
    writeFileSync(file, [
      '{"write":{"path":"docs/guide.md","content":"one\\ntwo\\n"}}',
      '{"submit":"Please read docs/guide.md"}',
      '{"update":{"cwd":"src","approval_policy":"never"}}',
      '{"submit":"Please read lib.rs"}',
      '{"remove":"docs"}',
      '{"tick_ms":400000}',
      '{"update":{"cwd":"/workspace"}}',
      '{"submit":"Please read docs/guide.md"}',
    ].join('\n') + '\n');
    const r = await runCli(['run', '--script', file, '--workspace', ws, '--home', home], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Read docs/guide.md: 2 lines.\nRead lib.rs: 1 line.\nread_file failed: not_found: /workspace/docs/guide.md\n');
    assert.equal(existsSync(join(ws, 'docs')), false);
    const [rollout] = listFiles(join(home, 'sessions')).map((f) => join(home, 'sessions', f));
    const lines = readJsonl(rollout);
    const contexts = lines.filter((l) => l.type === 'turn_context').map((l) => [l.payload.cwd, l.payload.approval_policy]);
    assert.deepEqual(contexts, [['/workspace', 'on-request'], ['/workspace/src', 'never'], ['/workspace', 'never']]);
    // The virtual clock: the last turn is 400 s after the first.
    const starts = lines.filter((l) => l.type === 'event_msg' && l.payload.type === 'task_started').map((l) => Date.parse(l.timestamp));
    assert.equal(starts.length, 3);
    assert.equal(starts[2] - starts[0], 400000);
  });

  test('a failing step stops the script with file:line', async () => {
    const file = join(tmp.dir, 'bad-update.jsonl');
    writeFileSync(file, '{"submit":"hi"}\n{"update":{"sandbox":{"mode":"bogus"}}}\n{"submit":"never"}\n');
    const r = await runCli(['run', '--script', file, '--workspace', ws, '--home', join(tmp.dir, 'home2')], { cwd: ws });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, 'Mock reply to: hi\n');
    assert.match(r.stderr, /^agentctx: invalid_config: .*bad-update\.jsonl:2: [^\n]*sandbox\.mode[^\n]*$/m);
    const c = join(tmp.dir, 'bad-cwd.jsonl');
    writeFileSync(c, '{"update":{"cwd":"../.."}}\n');
    const rc = await runCli(['run', '--script', c, '--workspace', ws, '--home', join(tmp.dir, 'home2')], { cwd: ws });
    assert.equal(rc.code, 2);
    assert.match(rc.stderr, /^agentctx: .*bad-cwd\.jsonl:1: cwd \.\.\/\.\.: outside the workspace\n$/m);
  });

  test('a bad line is reported before anything runs', async () => {
    const file = join(tmp.dir, 'bad-line.jsonl');
    writeFileSync(file, '{"write":{"path":"created.txt","content":"x"}}\n{"submit":"hi"}\n{"tick_ms":"soon"}\n');
    const home = join(tmp.dir, 'home3');
    const r = await runCli(['run', '--script', file, '--workspace', ws, '--home', home], { cwd: ws });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^agentctx: .*bad-line\.jsonl:3: tick_ms needs a non-negative integer\n$/);
    assert.equal(existsSync(join(ws, 'created.txt')), false);
    assert.equal(existsSync(home), false);
  });

  test('{"compact":true} runs a compaction turn, or says clearly that this build has none', async () => {
    const file = join(tmp.dir, 'compact.jsonl');
    writeFileSync(file, '{"submit":"hello"}\n{"compact":true}\n{"submit":"after"}\n');
    const home = join(tmp.dir, 'home4');
    const r = await runCli(['run', '--script', file, '--workspace', ws, '--home', home], { cwd: ws });
    if (r.code === 0) {
      assert.equal(r.stdout.split('\n').at(-2), 'Mock reply to: after');
      const [rollout] = listFiles(join(home, 'sessions')).map((f) => join(home, 'sessions', f));
      assert.ok(readFileSync(rollout, 'utf8').includes('"type":"compacted"'));
    } else {
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^agentctx: unknown_method: .*compact\.jsonl:2: this engine build has no `compact` method[^\n]*\n$/m);
    }
  });
});
