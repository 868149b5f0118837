// SPDX-License-Identifier: MIT
// The READMEs' five-line embedding example (the repository's README.md and the package's own
// wasm/README.md), run verbatim against the built package: it must stay five lines, its result
// must be what its trailing comment says, and the text before it says the snippet is an ES module
// (`.mjs` or `"type": "module"`), since it does not run as CommonJS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const packageReadme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

// The first js block after `heading`, after checking that the prose before it says how to run it.
function firstExample(text, heading) {
  const section = text.slice(text.indexOf(heading));
  const at = section.indexOf('```js\n');
  assert.ok(at > 0, `no js block after ${heading}`);
  const before = section.slice(0, at);
  assert.match(before, /\.mjs/, 'the README says to save the snippet as .mjs');
  assert.match(before, /"type": "module"/, 'the README names "type": "module"');
  return section.match(/```js\n([\s\S]*?)```/)[1];
}

test('README: the embedding example runs and answers what it claims', async () => {
  await runExample(firstExample(readme, '## Embedding the package'));
});

test('wasm/README.md (shipped in the tarball): the same example, verbatim, runs', async () => {
  const code = firstExample(packageReadme, '## The shortest session');
  await runExample(code);
  assert.equal(code, firstExample(readme, '## Embedding the package'), 'the two READMEs show the same snippet');
});

let examples = 0;
async function runExample(code) {
  const lines = code.trimEnd().split('\n');
  assert.equal(lines.length, 5, code);
  const claimed = lines.at(-1).match(/\/\/ '(.*)'$/)[1];
  // Next to this test, so the bare `agentctx` import resolves like a user's would.
  const file = fileURLToPath(new URL(`./.readme-example-${process.pid}-${examples++}.mjs`, import.meta.url));
  writeFileSync(file, `${code}\nexport { last_agent_message, engine };\n`);
  try {
    const example = await import(file);
    assert.equal(example.last_agent_message, claimed);
    example.engine.dispose();
  } finally {
    rmSync(file, { force: true });
  }
}
