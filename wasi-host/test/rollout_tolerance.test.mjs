// SPDX-License-Identifier: MIT
// Rollouts edited by hand or by other tools: a blank line in the middle (skipped with one
// warning, as Codex's reader skips it) and a UTF-8 BOM at the start (dropped) are read by one
// rule in `resume` and `replay`.
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFiles, loadHost, runCli, tempTree } from './helpers.mjs';

await loadHost();
const tmp = tempTree({ 'ws/README.md': '# demo\n' });
after(tmp.cleanup);
const ws = join(tmp.dir, 'ws');
const rollouts = (home) => listFiles(join(home, 'sessions')).map((f) => join(home, 'sessions', f));

async function firstRollout(name) {
  const home = join(tmp.dir, name);
  const first = await runCli(['run', '--workspace', ws, '--home', home, 'hello'], { cwd: ws });
  assert.equal(first.code, 0, first.stderr);
  const [file] = rollouts(home);
  return { home, file, lines: readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') };
}

describe('rollout tolerance', () => {
  test('Regression a blank line in the middle of a rollout: resume and replay skip it with one warning', async () => {
    const { home, file, lines } = await firstRollout('blank');
    const middle = Math.floor(lines.length / 2);
    // An empty line and a whitespace-only one (with a CR, as a CRLF editor leaves it).
    writeFileSync(file, [...lines.slice(0, middle), '', ' \t\r', ...lines.slice(middle)].join('\n') + '\n');
    const replay = await runCli(['replay', '--json', file]);
    assert.equal(replay.code, 0, replay.stderr);
    assert.doesNotMatch(replay.stderr + replay.stdout, /document is empty/);
    const resumed = await runCli(['resume', '--workspace', ws, '--home', home, file, 'again'], { cwd: ws });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.stdout, 'Mock reply to: again\n');
    const warnings = resumed.stderr.match(/warning: rollout_blank_line[^\n]*/g) ?? [];
    assert.equal(warnings.length, 1, resumed.stderr);
    assert.match(warnings[0], new RegExp(`skipped 2 blank rollout lines \\(first: line ${middle + 1}\\)`));
    // The history of the first turn went into the resumed request.
    const all = readFileSync(file, 'utf8').split('\n');
    assert.equal(all[middle], '', 'the blank lines stay where they were');
    const parsed = all.filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
    assert.equal(parsed.filter((l) => l.type === 'event_msg' && l.payload.type === 'user_message').length, 2);
  });

  test('Regression a UTF-8 BOM at the start of a rollout: resume and replay both accept it', async () => {
    const { home, file } = await firstRollout('bom');
    const original = readFileSync(file);
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), original]));
    const replay = await runCli(['replay', '--json', file]);
    assert.equal(replay.code, 0, replay.stderr);
    const resumed = await runCli(['resume', '--workspace', ws, '--home', home, file, 'again'], { cwd: ws });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.stdout, 'Mock reply to: again\n');
    assert.doesNotMatch(resumed.stderr, /no session_meta/);
    // The file kept its bytes and grew; a second resume works too.
    const after1 = readFileSync(file);
    assert.ok(after1.subarray(0, original.length + 3).equals(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), original])));
    const again = await runCli(['resume', '--workspace', ws, '--home', home, file, 'more'], { cwd: ws });
    assert.equal(again.code, 0, again.stderr);
  });

  test('a rollout of one line with a BOM and no newline is not cut when resumed', async () => {
    const { home, lines } = await firstRollout('bom-one');
    const file = join(tmp.dir, 'one-line.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines[0])]));
    const resumed = await runCli(['resume', '--workspace', ws, '--home', home, file, 'again'], { cwd: ws });
    assert.equal(resumed.code, 0, resumed.stderr);
    const [copy] = rollouts(home).filter((f) => f.includes('one-line'));
    assert.ok(readFileSync(copy, 'utf8').includes(lines[0]));
  });
});
