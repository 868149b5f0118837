// SPDX-License-Identifier: MIT
// Regression: the engine's tools never reach the agentctx home, whatever the layout.
//  - Run from `~` (the workspace is the current directory, the home ~/.agentctx lies inside it),
//    with a home elsewhere inside the workspace, through a symbolic link, and with the workspace
//    being the home itself: grep, read_file, list_dir, glob and write_file (through the mock's
//    `#mock-call:` directives) cannot see or change the home's rollouts or its global AGENTS.md;
//    the CLI says so once on stderr.
//  - An empty home value (`--home ''`, `AGENTCTX_HOME=`) is a usage error, and so are a home that
//    is a file and one where the sessions directory cannot be made (`--home /proc/self`, which
//    made Node's recursive mkdir spin at 100 % CPU): exit 2, naming the flag, in bounded time.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFiles, runCli, tempTree } from './helpers.mjs';

const tmp = tempTree({ 'user/notes.txt': 'hello\n', 'user/.agentctx/AGENTS.md': 'global rules\n', 'afile': 'x' });
after(tmp.cleanup);
const user = join(tmp.dir, 'user');
const home = join(user, '.agentctx');
const SECRET = 'hunter2-password-9f3b';

/** `agentctx ARGS` run from `~` (HOME=user, cwd=user): the default workspace and home. */
const fromHome = (args, input) => runCli(args, { cwd: user, env: { HOME: user }, ...(input ? { input } : {}) });

/** The outputs of the session's tool calls (the `--json` effect stream). */
function toolOutputs(stdout) {
  const out = [];
  for (const line of stdout.split('\n')) {
    if (line === '') continue;
    const v = JSON.parse(line);
    const item = v.type === 'event' && v.event?.type === 'item_done' ? v.event.item : undefined;
    if (item?.type === 'function_call_output') out.push(typeof item.output === 'string' ? item.output : JSON.stringify(item.output));
  }
  return out.join('\n');
}

const NOTE = /^agentctx: note: the home .*\.agentctx lies inside the workspace: the engine's tools cannot see or change it$/m;

let rollout;
before(async () => {
  // An earlier session typed a secret: its rollout lies in ~/.agentctx/sessions.
  const r = await fromHome(['run', `my password is ${SECRET}`]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr.split('\n').filter((l) => NOTE.test(l)).length, 1, `said once: ${r.stderr}`);
  [rollout] = listFiles(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl'));
  assert.ok(readFileSync(join(home, 'sessions', rollout), 'utf8').includes(SECRET));
});

describe('Regression: the home inside the workspace is out of the tools\' reach', () => {
  test('grep does not find what an earlier session typed', async () => {
    const r = await fromHome(['run', '--json', `#mock-call:grep={"pattern":"${SECRET}"}`]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!toolOutputs(r.stdout).includes('.agentctx'), toolOutputs(r.stdout));
    assert.ok(!toolOutputs(r.stdout).includes('sessions/rollout'), toolOutputs(r.stdout));
    // the same search does find a workspace file
    writeFileSync(join(user, 'found.txt'), `${SECRET}\n`);
    const found = await fromHome(['run', '--json', `#mock-call:grep={"pattern":"${SECRET}"}`]);
    assert.match(toolOutputs(found.stdout), /found\.txt/);
    assert.doesNotMatch(toolOutputs(found.stdout), /\.agentctx/);
  });

  test('read_file of a rollout, list_dir and glob: refused or not listed', async () => {
    const read = await fromHome(['run', '--json', `#mock-call:read_file={"path":".agentctx/sessions/${rollout}"}`]);
    assert.equal(read.code, 0, read.stderr);
    assert.ok(!toolOutputs(read.stdout).includes(SECRET), toolOutputs(read.stdout));
    assert.match(toolOutputs(read.stdout), /failed: (not_capable|permission_denied|not_found)/);
    const list = await fromHome(['run', '--json', '#mock-call:list_dir={"path":"."}']);
    assert.match(toolOutputs(list.stdout), /notes\.txt/);
    assert.doesNotMatch(toolOutputs(list.stdout), /\.agentctx/);
    const listHome = await fromHome(['run', '--json', '#mock-call:list_dir={"path":".agentctx"}']);
    assert.doesNotMatch(toolOutputs(listHome.stdout), /sessions|AGENTS\.md/);
    const glob = await fromHome(['run', '--json', '#mock-call:glob={"pattern":"**/*.jsonl"}']);
    assert.doesNotMatch(toolOutputs(glob.stdout), /rollout-/);
  });

  test('--writable: write_file cannot rewrite the global AGENTS.md, nor add a rollout', async () => {
    for (const path of ['.agentctx/AGENTS.md', '.agentctx/sessions/evil.jsonl', '.agentctx/AGENTS.override.md']) {
      const r = await fromHome(['run', '--writable', '--json', `#mock-call:write_file={"path":"${path}","content":"obey me"}`]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(toolOutputs(r.stdout), /failed: (not_capable|permission_denied|not_found)/, path);
    }
    assert.equal(readFileSync(join(home, 'AGENTS.md'), 'utf8'), 'global rules\n');
    assert.ok(!existsSync(join(home, 'sessions', 'evil.jsonl')));
    assert.ok(!existsSync(join(home, 'AGENTS.override.md')));
    // a workspace file is still written
    const ok = await fromHome(['run', '--writable', '--json', '#mock-call:write_file={"path":"new.txt","content":"fine"}']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(readFileSync(join(user, 'new.txt'), 'utf8'), 'fine');
  });

  test('a symbolic link in the workspace to the home leads nowhere', async () => {
    symlinkSync('.agentctx', join(user, 'link'));
    const r = await fromHome(['run', '--writable', '--json', `#mock-call:read_file={"path":"link/sessions/${rollout}"}`]);
    assert.ok(!toolOutputs(r.stdout).includes(SECRET));
    const w = await fromHome(['run', '--writable', '--json', '#mock-call:write_file={"path":"link/AGENTS.md","content":"obey me"}']);
    assert.match(toolOutputs(w.stdout), /failed: (not_capable|permission_denied|not_found)/);
    assert.equal(readFileSync(join(home, 'AGENTS.md'), 'utf8'), 'global rules\n');
  });

  test('the global AGENTS.md is still loaded from the home (/state)', async () => {
    const r = await fromHome(['inspect', '--format', 'agents']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /global rules/);
  });

  test('the workspace being the home: its sessions/ and AGENTS.md are hidden; inside sessions/ is refused', async () => {
    const h = join(tmp.dir, 'plainhome');
    mkdirSync(join(h, 'sessions'), { recursive: true });
    writeFileSync(join(h, 'AGENTS.md'), 'global rules\n');
    writeFileSync(join(h, 'sessions', 'old.jsonl'), `${SECRET}\n`);
    writeFileSync(join(h, 'other.txt'), 'visible\n');
    const r = await runCli(['run', '--json', '--workspace', h, '--home', h, '#mock-call:list_dir={"path":"."}'], { cwd: h });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^agentctx: note: the workspace is --home .*: the engine's tools cannot see or change its sessions\/, AGENTS\.md or AGENTS\.override\.md$/m);
    assert.match(toolOutputs(r.stdout), /other\.txt/);
    assert.doesNotMatch(toolOutputs(r.stdout), /sessions|AGENTS\.md/);
    const inside = await runCli(['run', '--workspace', join(h, 'sessions'), '--home', h, 'hi'], { cwd: h });
    assert.equal(inside.code, 2, inside.stderr);
    assert.match(inside.stderr, /^agentctx: --workspace .*sessions: inside the rollouts of --home .* \(sessions\/\); choose another workspace or home$/m);
  });
});

describe('Regression: a home value that cannot be a home is a usage error naming its source', () => {
  test("--home '' and AGENTCTX_HOME= are refused", async () => {
    const flag = await runCli(['run', '--home', '', 'hi'], { cwd: user });
    assert.equal(flag.code, 2, flag.stderr);
    assert.match(flag.stderr, /^agentctx: --home needs a directory/m);
    const env = await runCli(['run', 'hi'], { cwd: user, env: { AGENTCTX_HOME: '' } });
    assert.equal(env.code, 2, env.stderr);
    assert.match(env.stderr, /^agentctx: AGENTCTX_HOME is set but empty/m);
    assert.ok(!existsSync(join(user, 'sessions')), 'the current directory became the home');
    // A command that uses no home does not look at it.
    const replay = await runCli(['replay', '--json', join(home, 'sessions', rollout)], { cwd: user, env: { AGENTCTX_HOME: '' } });
    assert.equal(replay.code, 0, replay.stderr);
  });

  test('--home FILE and AGENTCTX_HOME=FILE: not a directory', async () => {
    const file = join(tmp.dir, 'afile');
    for (const [args, env, label] of [[['--home', file], {}, `--home ${file}`], [[], { AGENTCTX_HOME: file }, `AGENTCTX_HOME=${file}`]]) {
      for (const command of [['run', ...args, 'hi'], ['inspect', ...args], ['call', ...args, 'version']]) {
        const r = await runCli(command, { cwd: user, env });
        assert.equal(r.code, 2, `${command.join(' ')}: ${r.stderr}`);
        assert.equal(r.stderr, `agentctx: ${label}: not a directory\n`);
      }
    }
  });

  test('--home /proc/self: a usage error at once, not a spinning process', { skip: !existsSync('/proc/self') }, async () => {
    const started = Date.now();
    const r = await runCli(['run', '--home', '/proc/self', 'hi'], { cwd: user, timeoutMs: 20000 });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^agentctx: --home \/proc\/self: cannot create \/proc\/self\/sessions \(E[A-Z]+\)$/m);
    assert.ok(Date.now() - started < 20000);
  });
});
