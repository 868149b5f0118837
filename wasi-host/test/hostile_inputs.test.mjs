// SPDX-License-Identifier: MIT
// The hostile-input catalogue at small sizes (tests/stress/hostile_cases.mjs): each
// case's expected outcome (a clear warning or error, never a crash, trap or hang). `npm run
// stress` runs the same cases at full size and records time and max RSS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadHost } from './helpers.mjs';
import { CASES, runCase } from '../../tests/stress/hostile_cases.mjs';

await loadHost();

for (const c of CASES) {
  test(`hostile input: ${c.name} (${c.small} ${c.unit})`, { timeout: 120000 }, async () => {
    const r = await runCase(c, 'small');
    assert.deepEqual(r.failed, [], `${r.name}: exit ${r.code}, signal ${r.signal}\n${r.stderr}`);
  });
}
