// SPDX-License-Identifier: MIT
// `npm run fuzz` accumulates (scripts/fuzz/corpus_merge.mjs): the committed corpus takes what a
// run found (hand-written seeds kept, found inputs re-chosen by libFuzzer's -merge=1, capped), and
// the ledger in docs/RELIABILITY.md gets a row per target whose cumulative executions add the
// run's to the target's previous total. The merge runs a tiny libFuzzer target built here with
// clang++-14 (the fuzz preset's compiler); the ledger needs nothing. Its options are checked
// before anything is built (--help lists them).
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { appendLedgerRows, cumulativeByTarget, LEDGER_END, LEDGER_START, mergeCorpus } from '../scripts/fuzz/corpus_merge.mjs';

const dir = mkdtempSync(join(tmpdir(), 'actx-fuzz-ledger-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const LEDGER = `# Reliability\n\nText before.\n\n${LEDGER_START}
| date | target | built from | executions | cumulative executions | new features | corpus | crashes |
|---|---|---|---|---|---|---|---|
| 2026-12-02 | json_codec | three runs | — | 16 800 000 | — | seeds | 0 |
| 2026-12-02 | session | three runs | — | 264 000 | — | seeds | 0 |
${LEDGER_END}\n\nText after.\n`;

describe('the fuzz ledger', () => {
  test('each run adds its executions to the target\'s previous total', () => {
    const path = join(dir, 'RELIABILITY.md');
    writeFileSync(path, LEDGER);
    const run = (execs, extra = {}) => ({
      date: '2026-12-05', commit: 'abc1234', crashes: 0, new_features: 12,
      corpus: { files: 9, bytes: 5000 }, execs, ...extra,
    });
    appendLedgerRows(path, [{ ...run(1_234_567), target: 'json_codec' }, { ...run(5000), target: 'session' }, { ...run(42), target: 'regex' }]);
    appendLedgerRows(path, [{ ...run(1000, { interrupted: true, new_features: null, crashes: 1 }), target: 'session' }]);
    const text = readFileSync(path, 'utf8');
    assert.ok(text.startsWith('# Reliability\n\nText before.\n\n'), text);
    assert.ok(text.endsWith(`${LEDGER_END}\n\nText after.\n`), text);
    const rows = text.split('\n').filter((l) => l.startsWith('| 2026-12-05'));
    assert.deepEqual(rows, [
      '| 2026-12-05 | json_codec | abc1234 | 1 234 567 | 18 034 567 | 12 | 9 files, 5 KiB | 0 |',
      '| 2026-12-05 | session | abc1234 | 5 000 | 269 000 | 12 | 9 files, 5 KiB | 0 |',
      '| 2026-12-05 | regex | abc1234 | 42 | 42 | 12 | 9 files, 5 KiB | 0 |',
      '| 2026-12-05 | session | abc1234 | 1 000 (interrupted) | 270 000 | — | 9 files, 5 KiB | 1 |',
    ]);
    const table = text.slice(text.indexOf(LEDGER_START), text.indexOf(LEDGER_END));
    assert.deepEqual([...cumulativeByTarget(table)], [['json_codec', 18_034_567], ['session', 270_000], ['regex', 42]]);
  });

  test('a file without the ledger markers is refused and left as it was', () => {
    const path = join(dir, 'no_ledger.md');
    writeFileSync(path, '# nothing here\n');
    assert.throws(() => appendLedgerRows(path, [{ target: 'x', execs: 1, crashes: 0, date: 'd', commit: 'c' }]), /no <!-- fuzz-ledger:start -->/);
    assert.equal(readFileSync(path, 'utf8'), '# nothing here\n');
  });
});

describe('the corpus merge', () => {
  const clang = spawnSync('clang++-14', ['--version']).status === 0;
  const toy = join(dir, 'toy');
  if (clang) {
    // Coverage grows with each matched byte of "abc": three inputs add features.
    writeFileSync(join(dir, 'toy.cc'), `#include <cstddef>
#include <cstdint>
volatile int sink;
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* d, size_t n) {
  if (n > 0 && d[0] == 'a') { sink = 1; if (n > 1 && d[1] == 'b') { sink = 2; if (n > 2 && d[2] == 'c') sink = 3; } }
  return 0;
}
`);
    const built = spawnSync('clang++-14', ['-fsanitize=fuzzer', '-O0', join(dir, 'toy.cc'), '-o', toy], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
  }
  const tree = (name, seeds, found) => {
    const committed = join(dir, name, 'committed');
    const work = join(dir, name, 'work');
    mkdirSync(committed, { recursive: true });
    mkdirSync(work, { recursive: true });
    for (const [f, text] of Object.entries(seeds)) writeFileSync(join(committed, f), text);
    for (const [f, text] of Object.entries(found)) writeFileSync(join(work, f), text);
    return { exe: toy, committed, work, staging: join(dir, name, 'staging') };
  };

  test('found inputs join the seeds once; a second merge changes nothing', { skip: !clang && 'clang++-14 is not installed' }, () => {
    const t = tree('grow', { hand_seed: 'seed-x' }, { w1: 'a', w2: 'ab', w3: 'abc', w4: 'zzzz' });
    const first = mergeCorpus({ ...t, capBytes: 1 << 20 });
    assert.deepEqual(first, { files: 4, bytes: 12, added: 3, removed: 0, dropped: 0 });
    const names = readdirSync(t.committed).sort();
    assert.ok(names.includes('hand_seed'));
    assert.deepEqual(names.filter((f) => f !== 'hand_seed').map((f) => readFileSync(join(t.committed, f), 'utf8')).sort(), ['a', 'ab', 'abc']);
    assert.deepEqual(mergeCorpus({ ...t, capBytes: 1 << 20 }), { files: 4, bytes: 12, added: 0, removed: 0, dropped: 0 });
  });

  test('past the cap the largest found inputs are left out, never a seed', { skip: !clang && 'clang++-14 is not installed' }, () => {
    const t = tree('cap', { hand_seed: 'seed-x', other_seed: 'a very long hand-written seed' }, { w1: 'a', w2: 'ab', w3: 'abc' });
    const r = mergeCorpus({ ...t, capBytes: 6 });
    assert.equal(r.dropped, 3); // the seeds alone are past the cap
    assert.deepEqual(readdirSync(t.committed).sort(), ['hand_seed', 'other_seed']);
    const t2 = tree('cap2', { hand_seed: 'seed-x' }, { w1: 'a', w2: 'ab', w3: 'abc' });
    assert.deepEqual(mergeCorpus({ ...t2, capBytes: 9 }), { files: 3, bytes: 9, added: 2, removed: 0, dropped: 1 });
    assert.deepEqual(readdirSync(t2.committed).filter((f) => f !== 'hand_seed').map((f) => readFileSync(join(t2.committed, f), 'utf8')).sort(), ['a', 'ab']);
  });

  test('a failed merge throws and leaves the committed corpus alone', () => {
    const t = tree('broken', { hand_seed: 'seed-x', [('0'.repeat(40))]: 'found before' }, { w1: 'a' });
    assert.throws(() => mergeCorpus({ ...t, exe: join(dir, 'no-such-fuzzer'), capBytes: 1 << 20 }), /-merge=1 failed/);
    assert.deepEqual(readdirSync(t.committed).sort(), ['0'.repeat(40), 'hand_seed']);
  });
});

describe('npm run fuzz options', () => {
  const fuzz = (...args) => spawnSync(process.execPath, [new URL('../scripts/fuzz.mjs', import.meta.url).pathname, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });

  test('--help lists every option and builds nothing', () => {
    const r = fuzz('--help');
    assert.equal(r.status, 0, r.stderr);
    for (const flag of ['--seconds', '--runs', '--jobs', '--nice', '--only', '--no-build', '--build-dir', '--summary', '--no-record', '--corpus-cap-kb']) {
      assert.match(r.stdout, new RegExp(`^  ${flag}\\b`, 'm'), flag);
    }
    assert.doesNotMatch(r.stdout + r.stderr, /Building|Configuring/);
  });

  test('an unknown option, or one without its value, is refused before anything runs', () => {
    for (const args of [['--secnds', '5'], ['--seconds'], ['60']]) {
      const r = fuzz(...args);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, /unknown or incomplete option/);
      assert.doesNotMatch(r.stdout + r.stderr, /Building|Configuring/);
    }
  });
});
