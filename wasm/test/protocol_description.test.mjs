// SPDX-License-Identifier: MIT
// The one protocol description (core/protocol.json) and what is generated from it: one edit to
// the description reaches the C++ enums, the package's types, the CLI's flag validation and the
// docs in one rendering; the committed files are that rendering; the built package exports the
// description's lists; a malformed description fails with the path of the problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { renderAll, staleFiles, DESCRIPTION_PATH } from '../../scripts/gen_protocol.mjs';
import { ENUM_VALUES, SESSION_METHODS, WARNING_CODES, ERROR_CODES } from 'agentctx';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const descriptionText = readFileSync(join(root, DESCRIPTION_PATH), 'utf8');
const description = JSON.parse(descriptionText);

test('the committed generated files are exactly the rendering of the description', () => {
  assert.deepEqual(staleFiles(), []);
});

test('one new enum value reaches C++, TypeScript, the CLI and the docs in one rendering', () => {
  const edited = structuredClone(description);
  const sandbox = edited.enums.find((e) => e.name === 'SandboxMode');
  sandbox.values.push({ wire: 'container-only', doc: 'writes inside a container' });
  const out = renderAll(JSON.stringify(edited));
  assert.match(out.get('core/include/agentctx/wire_enums.h'), /kContainerOnly,/);
  assert.match(out.get('core/include/agentctx/wire_enums.h'), /"container-only",/);
  assert.match(out.get('wasm/ts/generated/protocol.ts'), /\| "container-only"/);
  assert.match(out.get('wasi-host/src/generated/cli_enums.ts'), /"sandbox": \[[^\]]*"container-only"\]/);
  assert.match(out.get('docs/protocol.md'), /`container-only` \| writes inside a container/);
  assert.match(out.get('docs/config.md'), /`sandbox\.mode` \| [^\n]*`container-only`/);
});

test('one new config key reaches the C++ key table, the TypeScript config and docs/config.md', () => {
  const edited = structuredClone(description);
  edited.config.fields.push({ key: 'cache_region', type: 'string', nullable: true, default: null, doc: 'Where the cache lives.' });
  const out = renderAll(JSON.stringify(edited));
  assert.match(out.get('core/include/agentctx/wire_enums.h'), /"cache_region",\n\};/);
  assert.match(out.get('wasm/ts/generated/config.ts'), /  cache_region\?: string \| null;/);
  assert.match(out.get('docs/config.md'), /\| `cache_region` \| string or null \| `null` \| Where the cache lives\. \|/);
});

test('a malformed description fails naming the problem', () => {
  const badDefault = structuredClone(description);
  badDefault.config.fields.find((f) => f.key === 'trust').default = 'maybe';
  assert.throws(() => renderAll(JSON.stringify(badDefault)), /config\.trust: default maybe is not a value of Trust/);
  const badEnum = structuredClone(description);
  badEnum.config.fields.find((f) => f.key === 'trust').enum = 'Nope';
  assert.throws(() => renderAll(JSON.stringify(badEnum)), /names unknown enum Nope/);
  assert.throws(() => renderAll('{"enums": ['), /invalid JSON/);
});

test('the built package exports the description\'s lists', () => {
  for (const e of description.enums) {
    assert.deepEqual([...ENUM_VALUES[e.name]], e.values.map((v) => v.wire), e.name);
  }
  assert.deepEqual([...SESSION_METHODS], description.methods.session.map((m) => m.name));
  assert.deepEqual([...WARNING_CODES], description.warnings.map((w) => w.code));
  assert.deepEqual([...ERROR_CODES], description.error_codes.filter((c) => c.wire).map((c) => c.wire));
});
