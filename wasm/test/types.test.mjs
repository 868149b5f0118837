// SPDX-License-Identifier: MIT
// The published .d.ts compile for consumers under tsc --strict (skipLibCheck off): a Node
// consumer (types/consumer_node.ts, with `using`) and a bundler/browser consumer without
// @types/node and with lib ES2022 + DOM only (types/consumer_browser.ts: no Symbol.dispose). @ts-expect-error lines check what must NOT compile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
const run = promisify(execFile);

test('the public types compile for a Node and a browser consumer', { timeout: 120000 }, async () => {
  // Both projects at once: tsc is slow to start and the machine has 2 cores.
  const results = await Promise.all(['node', 'browser'].map(async (flavour) => {
    const project = fileURLToPath(new URL(`./types/tsconfig.${flavour}.json`, import.meta.url));
    const r = await run(process.execPath, [tsc, '-p', project]).catch((e) => e);
    return { flavour, code: r.code ?? 0, output: `${r.stdout}${r.stderr}` };
  }));
  for (const r of results) assert.equal(r.code, 0, `${r.flavour} consumer:\n${r.output}`);
});
