// SPDX-License-Identifier: MIT
// How `npm run fuzz` (scripts/fuzz.mjs) makes fuzzing accumulate across machines:
//  - mergeCorpus: the committed corpus tests/fuzz/corpus/<name>/ takes what a run found. Files
//    whose name is not a 40-hex SHA-1 are hand-written seeds and always stay; the rest (inputs
//    libFuzzer found, named by the SHA-1 of their bytes) are re-chosen on every merge by
//    libFuzzer's `-merge=1` from the committed corpus plus the run's corpus: the smallest
//    inputs that add coverage beyond the seeds, so the corpus stays minimal. Past the cap, the
//    largest found inputs are left out (seeds never are). The committed directory changes only
//    after the merge succeeded.
//  - appendLedgerRows: one row per target in the ledger table of docs/RELIABILITY.md (between
//    the fuzz-ledger markers): date, commit, executions of this run, cumulative executions (the
//    target's previous row plus this run), new features, corpus size, crashes.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const FOUND = /^[0-9a-f]{40}$/;

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => statSync(join(dir, f)).isFile()).sort();
}

/**
 * Merges `work` into `committed` through `staging` with the libFuzzer binary `exe`. Returns
 * {files, bytes, added, removed, dropped, new_features}; throws when libFuzzer's merge fails.
 */
export function mergeCorpus({ exe, committed, work, staging, capBytes, flags = [] }) {
  mkdirSync(committed, { recursive: true });
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const before = files(committed);
  for (const f of before) if (!FOUND.test(f)) copyFileSync(join(committed, f), join(staging, f));
  const dirs = [committed, ...(existsSync(work) ? [work] : [])];
  const r = spawnSync(exe, ['-merge=1', '-max_len=8192', '-timeout=10', '-rss_limit_mb=1024', ...flags, staging, ...dirs],
    { encoding: 'utf8', maxBuffer: 64 << 20 });
  const summary = /MERGE-OUTER: (\d+) new files with (\d+) new features added/.exec(r.stderr ?? '');
  if (r.status !== 0 || !summary) {
    throw new Error(`${exe} -merge=1 failed (exit ${r.status}):\n${(r.stderr ?? '').slice(-3000)}`);
  }
  // Found inputs, smallest first, kept while the whole corpus stays under the cap.
  const seedBytes = files(staging).filter((f) => !FOUND.test(f)).reduce((n, f) => n + statSync(join(staging, f)).size, 0);
  const found = files(staging).filter((f) => FOUND.test(f))
    .map((f) => ({ f, size: statSync(join(staging, f)).size })).sort((a, b) => a.size - b.size || a.f.localeCompare(b.f));
  let bytes = seedBytes;
  const keep = new Set();
  let dropped = 0;
  for (const { f, size } of found) {
    if (bytes + size > capBytes) {
      dropped += 1;
      continue;
    }
    keep.add(f);
    bytes += size;
  }
  let added = 0;
  let removed = 0;
  for (const f of before) {
    if (FOUND.test(f) && !keep.has(f)) {
      rmSync(join(committed, f));
      removed += 1;
    }
  }
  for (const f of keep) {
    if (!before.includes(f)) {
      copyFileSync(join(staging, f), join(committed, f));
      added += 1;
    }
  }
  return { files: files(committed).length, bytes, added, removed, dropped };
}

export const LEDGER_START = '<!-- fuzz-ledger:start -->';
export const LEDGER_END = '<!-- fuzz-ledger:end -->';
const HEADER = '| date | target | built from | executions | cumulative executions | new features | corpus | crashes |';

/** Digits of a table cell as a number ("16 800 000" -> 16800000); NaN without digits. */
function cellNumber(cell) {
  const digits = cell.replace(/[^0-9]/g, '');
  return digits === '' ? NaN : Number(digits);
}

/** Groups of three digits separated by spaces, as the rest of RELIABILITY.md writes them. */
function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** The latest cumulative executions of each target in a ledger table's text. */
export function cumulativeByTarget(tableText) {
  const totals = new Map();
  for (const line of tableText.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length !== 8 || cells[0] === 'date' || /^-+$/.test(cells[0])) continue;
    const total = cellNumber(cells[4]);
    if (Number.isFinite(total)) totals.set(cells[1], total);
  }
  return totals;
}

/**
 * Appends one row per result ({target, date, commit, execs, crashes, new_features, corpus, timeout}) to
 * the ledger of `path`; throws when the file has no ledger markers.
 */
export function appendLedgerRows(path, results) {
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(LEDGER_START);
  const end = text.indexOf(LEDGER_END);
  if (start === -1 || end < start) throw new Error(`${path}: no ${LEDGER_START} … ${LEDGER_END} section`);
  let table = text.slice(start + LEDGER_START.length, end).trim();
  if (table === '') table = `${HEADER}\n|---|---|---|---|---|---|---|---|`;
  const totals = cumulativeByTarget(table);
  const rows = results.map((r) => {
    const execs = Number.isFinite(r.execs) ? r.execs : 0;
    const total = (totals.get(r.target) ?? 0) + execs;
    totals.set(r.target, total);
    const corpus = r.corpus ? `${r.corpus.files} files, ${Math.ceil(r.corpus.bytes / 1024)} KiB` : '—';
    const features = r.new_features === null || r.new_features === undefined ? '—' : grouped(r.new_features);
    return `| ${r.date} | ${r.target} | ${r.commit} | ${grouped(execs)}${r.interrupted ? ' (interrupted)' : ''} | ` +
      `${grouped(total)} | ${features} | ${corpus} | ${r.crashes}${r.timeout?.starved ? ' (stopped by a timeout that did not recur alone)' : ''} |`;
  });
  const next = `${text.slice(0, start + LEDGER_START.length)}\n${table}\n${rows.join('\n')}\n${text.slice(end)}`;
  writeFileSync(path, next);
}
