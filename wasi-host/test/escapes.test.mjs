// SPDX-License-Identifier: MIT
// The sandbox escape suite: every case of
// fixtures/escapes.json is refused, nothing outside the workspace changes, and no secret from
// outside the workspace (or from the home, beyond its AGENTS.md) reaches any output.
// Tool cases run the real path in process: the WASI guest (with the host's import wrapper), a
// session handle, the embedded mock model calling read_file/list_dir/write_file, the driver.
// A few cases also go through the CLI process to show the flags are wired the same way.
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, listFiles, loadHost, runCli, tempTree } from './helpers.mjs';

const host = await loadHost();
const { WasiGuest } = host;
const { SessionDriver, WallClock, engineCaller } = await import(join(DIST, 'driver.js'));
const { mockModelClient } = await import(join(DIST, '..', 'index.node.js'));
const config = await import(join(DIST, 'config.js'));
const script = await import(join(DIST, 'script.js'));

const fixture = JSON.parse(readFileSync(new URL('./fixtures/escapes.json', import.meta.url), 'utf8'));
const base = tempTree({ 'outside/': '' });
after(base.cleanup);
const OUTSIDE = join(base.dir, 'outside');
const HOME = join(base.dir, 'home');
const subst = (s) => s.replaceAll('$OUTSIDE', OUTSIDE).replaceAll('$HOME', HOME);
const spec = {};
for (const [path, value] of Object.entries(fixture.tree)) {
  spec[path] = typeof value === 'object' ? { symlink: subst(value.symlink) } : value;
}
const tree = tempTree(spec);
after(tree.cleanup);
// tempTree made its own directory; the fixture's relative links (../outside, ../home) point
// inside it, the $OUTSIDE ones to base/outside: seed both with the secret.
const ws = join(tree.dir, 'ws');
const outsideDirs = [join(tree.dir, 'outside'), join(tree.dir, 'home'), OUTSIDE];
(await import('node:fs')).writeFileSync(join(OUTSIDE, 'secret.txt'), 'TOPSECRET absolute\n');
const snapshot = () => outsideDirs.map((d) => listFiles(d).map((f) => `${f}=${readFileSync(join(d, f), 'utf8')}`));
const before = snapshot();

const guests = {
  false: await WasiGuest.load({ workspace: ws, state: join(tree.dir, 'home'), writable: false, stateWritable: false }),
  true: await WasiGuest.load({ workspace: ws, state: join(tree.dir, 'home'), writable: true, stateWritable: false }),
};
const seen = []; // every text any case produced, checked for secrets at the end

async function toolCase(c) {
  const writable = c.writable === true;
  const guest = guests[writable];
  const handle = guest.open();
  const clock = new WallClock();
  const events = [];
  const output = { effect: (e) => events.push(e), host: (r) => events.push(r) };
  const driver = new SessionDriver({
    guest, handle, clock, output, model: mockModelClient(engineCaller(guest), { now: () => clock.now() }),
    retry: { maxRetries: 0, baseMs: 0, maxDelayMs: 0 },
  });
  const flags = { writable, home: true, cwd: '/workspace', trust: true };
  if (c.sandbox) flags.sandbox = c.sandbox;
  driver.call('session.start', { config: config.buildConfig({}, flags) });
  const outcome = await driver.drive(driver.call('submit', { text: subst(c.prompt) }));
  const history = driver.query('history');
  guest.close(handle);
  seen.push(JSON.stringify(history), JSON.stringify(events));
  assert.equal(outcome.reason, 'completed', c.id);
  return history.filter((h) => h.item.type === 'function_call_output').map((h) => h.item.output);
}

describe('escape cases (fixtures/escapes.json)', () => {
  test('the fixture has at least 50 cases with unique ids', () => {
    assert.ok(fixture.cases.length >= 50, `${fixture.cases.length} cases`);
    assert.equal(new Set(fixture.cases.map((c) => c.id)).size, fixture.cases.length);
  });

  for (const c of fixture.cases) {
    test(`${c.kind}: ${c.id}`, async () => {
      if (c.kind === 'tool') {
        const outputs = await toolCase(c);
        assert.equal(outputs.length, c.expect.length, `${c.id}: ${JSON.stringify(outputs)}`);
        c.expect.forEach((re, i) => assert.match(outputs[i], new RegExp(subst(re)), c.id));
      } else if (c.kind === 'fs') {
        const guest = guests[c.writable === true];
        const handle = guest.open();
        const r = JSON.parse(guest.call(handle, c.method, JSON.stringify({ fs: 'workspace', path: c.path, text: 'pwned' })));
        guest.close(handle);
        seen.push(JSON.stringify(r));
        assert.equal(r.ok, false, `${c.id}: ${JSON.stringify(r)}`);
        assert.equal(r.error.code, c.expect, c.id);
      } else if (c.kind === 'script') {
        const line = JSON.stringify(c.step);
        assert.throws(() => {
          const [step] = script.parseScript(line, 'escape.jsonl');
          if (step.kind === 'write') script.writeWorkspaceFile(ws, step.path, step.content, 'write');
          else script.removeWorkspacePath(ws, step.path, 'remove');
        }, (e) => e.name === 'HostInputError' && e.message.includes(c.expect), c.id);
      } else if (c.kind === 'cwd') {
        assert.throws(() => {
          if (c.update) script.resolveDeltaCwd(ws, { cwd: subst(c.cwd) }, 'update');
          else config.guestCwd(ws, subst(c.cwd), '--cwd');
        }, (e) => e.name === 'HostInputError' && e.message.includes(c.expect), c.id);
      } else {
        assert.fail(`unknown kind ${c.kind}`);
      }
    });
  }

  test('nothing outside the workspace changed, no secret leaked', () => {
    assert.deepEqual(snapshot(), before);
    for (const text of seen) {
      for (const secret of fixture.secrets) assert.ok(!text.includes(secret), `${secret} leaked: ${text.slice(0, 300)}`);
    }
    // The workspace itself got no stray files either (writes were refused everywhere).
    assert.deepEqual(listFiles(ws).filter((f) => f.includes('pwn') || f.startsWith('new')), []);
  });
});

describe('the same refusals through the CLI process', () => {
  test('read and write escapes in `run` are refused; the rollout keeps the refusals', async () => {
    const home = join(base.dir, 'cli-home');
    const r = await runCli(['run', '--workspace', ws, '--home', home, '--json',
      'Please read link-out.txt and dir-out/secret.txt'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const outputs = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l))
      .filter((e) => e.type === 'event' && e.event.type === 'item_done' && e.event.item.type === 'function_call_output')
      .map((e) => e.event.item.output);
    assert.deepEqual(outputs, [
      'read_file failed: not_capable: /workspace/link-out.txt',
      'read_file failed: not_capable: /workspace/dir-out/secret.txt',
    ]);
    for (const secret of fixture.secrets) assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret));
    const w = await runCli(['run', '--workspace', ws, '--home', home, '--sandbox', 'danger-full-access',
      '#mock-write:a.txt=pwned'], { cwd: ws });
    assert.equal(w.code, 0, w.stderr);
    assert.match(w.stdout, /write_file failed: permission_denied/);
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'alpha\n');
  });

  test('--cwd and script escapes exit 2 with one line', async () => {
    for (const args of [['--cwd', '..'], ['--cwd', 'dir-out'], ['--cwd', OUTSIDE]]) {
      const r = await runCli(['run', '--workspace', ws, '--home', join(base.dir, 'cli-home'), ...args, 'hi'], { cwd: ws });
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /^agentctx: --cwd [^\n]*outside the workspace[^\n]*\n$/);
    }
  });
});
