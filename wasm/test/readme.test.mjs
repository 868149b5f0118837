// SPDX-License-Identifier: MIT
// The README's five-line embedding example, run verbatim against the built package: it must
// stay five lines and its result must be what its trailing comment says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

test('README: the embedding example runs and answers what it claims', async () => {
  const section = readme.slice(readme.indexOf('## Embedding the package'));
  const code = section.match(/```js\n([\s\S]*?)```/)[1];
  const lines = code.trimEnd().split('\n');
  assert.equal(lines.length, 5, code);
  const claimed = lines.at(-1).match(/\/\/ '(.*)'$/)[1];
  // Next to this test, so the bare `agentctx` import resolves like a user's would.
  const file = fileURLToPath(new URL(`./.readme-example-${process.pid}.mjs`, import.meta.url));
  writeFileSync(file, `${code}\nexport { last_agent_message, engine };\n`);
  try {
    const example = await import(file);
    assert.equal(example.last_agent_message, claimed);
    example.engine.dispose();
  } finally {
    rmSync(file, { force: true });
  }
});
