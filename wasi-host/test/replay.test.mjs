// SPDX-License-Identifier: MIT
// `agentctx replay FILE.jsonl [--json]` on the fixture rollouts (tests/fixtures/rollouts), on
// the real Codex rollouts in ../shared/rollouts (skipped with a message when absent), and on a
// rollout the CLI itself wrote.
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, listFiles, loadHost, runCli, tempTree } from './helpers.mjs';

await loadHost();
const FIXTURES = join(REPO, 'tests/fixtures/rollouts');
const SHARED = [join(REPO, '../shared/rollouts'), join(REPO, '../../shared/rollouts')].find((d) => existsSync(d));
const jsonl = (dir) => readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(dir, f));
const tmp = tempTree({ 'ws/ab.txt': 'a\n' });
after(tmp.cleanup);

async function replay(file, { table: withTable = true } = {}) {
  let table;
  if (withTable) {
    table = await runCli(['replay', file], { timeoutMs: 60000 });
    assert.equal(table.code, 0, `${file}: ${table.stderr}`);
    assert.equal(table.stderr, '');
    assert.ok(table.stdout.endsWith('\n') && table.stdout.length > 0);
  }
  const json = await runCli(['replay', '--json', file], { timeoutMs: 60000 });
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.equal(typeof report, 'object');
  return { table: table?.stdout, report };
}

describe('replay', () => {
  for (const file of jsonl(FIXTURES)) {
    test(`fixture ${file.split('/').at(-1)}`, async () => {
      const { report, table } = await replay(file);
      assert.ok(Array.isArray(report.requests) && report.requests.length > 0, JSON.stringify(report).slice(0, 200));
      assert.ok(table.length > 0);
    });
  }

  test('the real rollouts in ../shared/rollouts', { skip: SHARED ? false : '../shared/rollouts is not reachable from this checkout' }, async () => {
    // --json only: these files are large (up to a few MB) and the table path is covered above.
    for (const file of jsonl(SHARED)) {
      const { report } = await replay(file, { table: false });
      assert.ok(Array.isArray(report.requests), file);
    }
  });

  test('a rollout written by `agentctx run`', async () => {
    const home = join(tmp.dir, 'home');
    const r = await runCli(['run', '--workspace', join(tmp.dir, 'ws'), '--home', home, 'Please read ab.txt'], { cwd: join(tmp.dir, 'ws') });
    assert.equal(r.code, 0, r.stderr);
    const [file] = listFiles(join(home, 'sessions')).map((f) => join(home, 'sessions', f));
    const { report } = await replay(file);
    assert.equal(report.requests.length, 2);
  });

  test('a corrupt rollout is a one-line error naming the line', async () => {
    const bad = join(tmp.dir, 'bad.jsonl');
    writeFileSync(bad, '{"type":"session_meta","payload":{"id":"x"}}\nnot json\n{"type":"turn_context","payload":{}}\n');
    const r = await runCli(['replay', bad]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^agentctx: rollout_corrupt: [^\n]*2[^\n]*\n$/);
  });
});
