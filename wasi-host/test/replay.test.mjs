// SPDX-License-Identifier: MIT
// `agentctx replay FILE.jsonl [--json] [--requests] [--dump-requests DIR] [--cache-ttl-ms MS]
// [--price-input|--price-cached|--price-output USD] [--top N]` on the fixture rollouts
// (tests/fixtures/rollouts), on the real Codex rollouts in ../shared/rollouts (skipped with a
// message when absent, as in a user's clone), and on a rollout the CLI itself wrote. Each report
// is checked for two invariants: its causes add up to its uncached input, and its usage
// (each request counted once) adds up to the rollout's own total.
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, REPO, listFiles, loadHost, runCli, tempTree } from './helpers.mjs';

await loadHost();
const FIXTURES = join(REPO, 'tests/fixtures/rollouts');
const SHARED = [join(REPO, '../shared/rollouts'), join(REPO, '../../shared/rollouts')].find((d) => existsSync(d));
const jsonl = (dir) => readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(dir, f));
const tmp = tempTree({ 'ws/ab.txt': 'a\n' });
after(tmp.cleanup);

async function replay(file, { table: withTable = true, flags = [] } = {}) {
  let table;
  if (withTable) {
    table = await runCli(['replay', ...flags, file], { timeoutMs: 60000 });
    assert.equal(table.code, 0, `${file}: ${table.stderr}`);
    assert.equal(table.stderr, '');
    assert.ok(table.stdout.endsWith('\n') && table.stdout.length > 0);
  }
  const json = await runCli(['replay', '--json', ...flags, file], { timeoutMs: 60000 });
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.equal(typeof report, 'object');
  return { table: table?.stdout, report };
}

/** A report's invariants: causes add up to uncached input, usage to the rollout's total. */
function checkReport(report, name) {
  const s = report.summary;
  const sum = Object.values(s.lost_tokens_by_cause).reduce((a, b) => a + b, 0);
  assert.equal(sum, s.uncached_input_tokens, `${name}: causes add up to the uncached input`);
  let prevInput = null;
  for (const r of report.requests) {
    if (r.input_tokens === null) continue;
    assert.ok(r.predicted_cached_tokens <= r.input_tokens, `${name} ${r.request_id}: predicted <= input`);
    if (prevInput !== null) assert.ok(r.lost_tokens <= prevInput, `${name} ${r.request_id}: lost <= previous prompt`);
    assert.equal(Object.values(r.lost_tokens_by_cause).reduce((a, b) => a + b, 0), r.uncached_input_tokens);
    prevInput = r.input_tokens;
  }
  if (s.rollout_total_token_usage !== null) assert.equal(s.usage_matches_rollout_total, true, `${name}: usage counted once`);
}

describe('replay', () => {
  for (const file of jsonl(FIXTURES)) {
    test(`fixture ${file.split('/').at(-1)}`, async () => {
      const { report, table } = await replay(file);
      assert.ok(Array.isArray(report.requests) && report.requests.length > 0, JSON.stringify(report).slice(0, 200));
      assert.match(table, /^uncached input by cause$/m);
      checkReport(report, file);
    });
  }

  test('the real rollouts in ../shared/rollouts', { skip: SHARED ? false : '../shared/rollouts is not reachable from this checkout (a user\'s clone has none)' }, async (t) => {
    // --json only: these files are large (up to a few MB) and the table path is covered above.
    for (const file of jsonl(SHARED)) {
      const { report } = await replay(file, { table: false });
      checkReport(report, file);
      const s = report.summary;
      t.diagnostic(`${file.split('/').at(-1).slice(0, 48)}: uncached ${s.uncached_input_tokens} = by cause ` +
        `${Object.values(s.lost_tokens_by_cause).reduce((a, b) => a + b, 0)}; cost $${s.cost.total_usd}; ` +
        `total ${s.rollout_total_token_usage === null ? 'none' : s.usage_matches_rollout_total ? 'matches' : 'differs'}`);
      if (file.includes('Quelklef__shell-ws')) {
        // 566 usage events, 185 distinct: $4.96, the rollout's own total, not $14.95.
        assert.equal(s.requests_with_usage, 185);
        assert.equal(s.cost.total_usd, 4.96407475);
      }
    }
  });

  test('--dump-requests writes what the model saw at each step', async () => {
    const dir = join(tmp.dir, 'dump');
    const r = await runCli(['replay', '--dump-requests', dir, join(FIXTURES, 'codex_0169_layout.jsonl')]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(listFiles(dir), ['0001.json', '0002.json', '0003.json']);
    const first = JSON.parse(readFileSync(join(dir, '0001.json'), 'utf8'));
    assert.equal(first.model, 'gpt-5.5');
    assert.equal(first.instructions, undefined);
    // Codex 0.169: base instructions first, then the context fragments bundled per role.
    assert.deepEqual(first.input.map((i) => `${i.role}:${i.content.length}`), ['developer:1', 'developer:2', 'user:1', 'user:1']);
    assert.equal(first.input[0].content[0].text, 'You are Codex, a coding agent.');
    const second = JSON.parse(readFileSync(join(dir, '0002.json'), 'utf8'));
    assert.deepEqual(second.input.slice(0, 4), first.input);
    assert.deepEqual(second.input.slice(4).map((i) => i.type), ['reasoning', 'function_call', 'function_call_output']);
    assert.equal(JSON.parse(readFileSync(join(dir, '0003.json'), 'utf8')).model, 'gpt-5.5-mini');
    // Before 0.169 the base instructions are the `instructions` field.
    const old = join(tmp.dir, 'old.jsonl');
    writeFileSync(old, readFileSync(join(FIXTURES, 'codex_0169_layout.jsonl'), 'utf8').replace('"0.169.0"', '"0.126.0"'));
    const dir2 = join(tmp.dir, 'dump-old');
    assert.equal((await runCli(['replay', '--dump-requests', dir2, old])).code, 0);
    const firstOld = JSON.parse(readFileSync(join(dir2, '0001.json'), 'utf8'));
    assert.equal(firstOld.instructions, 'You are Codex, a coding agent.');
    assert.equal(firstOld.input.length, 4);
  });

  test('--requests, --top, --cache-ttl-ms and the prices', async () => {
    const file = join(FIXTURES, 'codex_0169_layout.jsonl');
    const all = await runCli(['replay', '--requests', file]);
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /^requests$/m);
    assert.equal(all.stdout.match(/^ {2}req-\d+ /gm).length, 1 + 3);  // one top miss + every request
    const none = await runCli(['replay', '--top', '0', file]);
    assert.match(none.stdout, /^top misses {12}none$/m);
    const { report } = await replay(file, { table: false, flags: ['--cache-ttl-ms', '60000', '--price-input', '2', '--price-cached', '0.5', '--price-output', '8'] });
    assert.equal(report.summary.ttl_ms, 60000);
    assert.deepEqual(report.summary.prices_per_million_usd, { input: 2, cached_input: 0.5, output: 8 });
    // (9250 − 2944)·2 + 2944·0.5 + 60·8 micro-USD
    assert.equal(report.summary.cost.total_usd, ((9250 - 2944) * 2 + 2944 * 0.5 + 60 * 8) / 1e6);
    for (const [flag, value] of [['--price-input', '-1'], ['--price-output', '1e3'], ['--cache-ttl-ms', 'soon'], ['--top', '-2']]) {
      const bad = await runCli(['replay', `${flag}=${value}`, file]);
      assert.equal(bad.code, 2, `${flag} ${value}`);
      assert.match(bad.stderr, new RegExp(`^agentctx: ${flag}`));
    }
    const help = await runCli(['--help']);
    for (const flag of ['--requests', '--cache-ttl-ms', '--price-input', '--price-cached', '--price-output', '--top', '--dump-requests']) {
      assert.match(help.stdout, new RegExp(`${flag}.*replay`), flag);
    }
    const run = await runCli(['run', '--top', '3', 'hi']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /run does not take --top/);
  });

  test('a rollout written by `agentctx run`', async () => {
    const home = join(tmp.dir, 'home');
    const r = await runCli(['run', '--workspace', join(tmp.dir, 'ws'), '--home', home, 'Please read ab.txt'], { cwd: join(tmp.dir, 'ws') });
    assert.equal(r.code, 0, r.stderr);
    const [file] = listFiles(join(home, 'sessions')).map((f) => join(home, 'sessions', f));
    const { report } = await replay(file);
    assert.equal(report.requests.length, 2);
    checkReport(report, file);
  });

  test('a corrupt rollout is a one-line error naming the line', async () => {
    const bad = join(tmp.dir, 'bad.jsonl');
    writeFileSync(bad, '{"type":"session_meta","payload":{"id":"x"}}\nnot json\n{"type":"turn_context","payload":{}}\n');
    const r = await runCli(['replay', bad]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^agentctx: rollout_corrupt: [^\n]*2[^\n]*\n$/);
  });

  test('a file that is not a rollout is refused, not reported as an empty session', async () => {
    // Once: exit 0 and an empty report. "Not a rollout": no line is a rollout line.
    const cases = {
      'empty.jsonl': '',
      'text.jsonl': 'just some text\n',
      'package.json': '{"name":"pkg","version":"1.0.0","type":"module"}\n',
      'objects.jsonl': '{"a":1}\n{"b":2}\n',
    };
    for (const [name, text] of Object.entries(cases)) {
      const file = join(tmp.dir, name);
      writeFileSync(file, text);
      for (const flags of [[], ['--json']]) {
        const r = await runCli(['replay', ...flags, file]);
        assert.equal(r.code, 1, `${name} ${flags}: ${r.stdout}`);
        assert.equal(r.stdout, '', name);
        assert.match(r.stderr, /^agentctx: invalid_input: [^\n]*: not a rollout[^\n]*\n$/, name);
      }
    }
    // A missing file stays a usage error naming it.
    const missing = await runCli(['replay', join(tmp.dir, 'nope.jsonl')]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /nope\.jsonl: cannot read the rollout/);
  });

  test('the rollout is read in chunks straight into the guest: lines cut anywhere, same bytes', async () => {
    const { fileAttachment } = await import(join(DIST, 'offline_commands.js'));
    const file = join(tmp.dir, 'chunked.jsonl');
    const lines = [JSON.stringify({ timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id: 'chunks' } })];
    for (let i = 0; i < 2000; i++) lines.push(JSON.stringify({ timestamp: '2026-01-01T00:00:01.000Z', type: 'event_msg', payload: { type: 'agent_message_delta', delta: `é${i}`.repeat(i % 7 + 1) } }));
    writeFileSync(file, lines.join('\n') + '\n');
    const want = readFileSync(file);
    for (const chunk of [1, 7, 4096, 1 << 26]) {
      const source = fileAttachment(file, chunk);
      try {
        assert.equal(source.byteLength, want.length);
        const dst = new Uint8Array(source.byteLength);
        source.fill(dst);
        assert.ok(Buffer.from(dst).equals(want), `chunks of ${chunk}`);
      } finally {
        source.close();
      }
    }
    // A file that shrinks between open and read is an error, never a silent short report.
    const source = fileAttachment(file, 4096);
    try {
      writeFileSync(file, lines.slice(0, 10).join('\n') + '\n');
      assert.throws(() => source.fill(new Uint8Array(source.byteLength)), /changed while it was read/);
    } finally {
      source.close();
    }
    // And through the CLI: the lines of the whole file are read.
    writeFileSync(file, lines.join('\n') + '\n');
    const { report } = await replay(file, { table: false });
    assert.equal(report.lines, lines.length);
  });
});
