// SPDX-License-Identifier: MIT
// Crash consistency, short mode: a few seeded kill -9 trials of the CLI during `run`
// and during `resume` (tests/stress/crash_trials.mjs has the checks); `npm run stress` runs
// the same trials >= 100 times.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadHost } from './helpers.mjs';
import { prepare, trial } from '../../tests/stress/crash_trials.mjs';

await loadHost();
const { fx, finalBytes } = await prepare(6);
after(fx.cleanup);

for (const [mode, seed] of [['run', 1], ['run', 2], ['resume', 3], ['resume', 4]]) {
  test(`kill -9 during ${mode} (seed ${seed}): nothing lost, resumes twice`, { timeout: 120000 }, async () => {
    const r = await trial(fx, mode, seed, { finalBytes });
    assert.deepEqual(r.problems, [], JSON.stringify(r));
  });
}
