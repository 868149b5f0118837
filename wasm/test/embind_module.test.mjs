// SPDX-License-Identifier: MIT
// The internal Embind module (dist/agentctx.mjs) against its hand-written types
// (ts/embind_module.d.ts) and the adapter contract of wasm/src/bindings.cc: adapter methods
// never throw on bad input, open() answers 0 for a malformed FileSystem map, and JS values held
// by sessions (emval handles) are released on close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import createAgentctxModule from '../dist/agentctx.mjs';

const dts = readFileSync(new URL('../ts/embind_module.d.ts', import.meta.url), 'utf8');
const module = await createAgentctxModule({
  wasmBinary: readFileSync(new URL('../dist/agentctx.wasm', import.meta.url)),
});

function declaredMethods(interfaceName) {
  const body = dts.match(new RegExp(`interface ${interfaceName} \\{([\\s\\S]*?)\\n\\}`))[1];
  return [...body.matchAll(/^ {2}(\w+)\??\(/gm)].map((m) => m[1]);
}

const fakeFs = {
  stat: () => ({ ok: false, code: 'not_found' }),
  read: () => ({ ok: false, code: 'not_found' }),
  list: () => ({ ok: true, entries: [] }),
  write: () => ({ ok: false, code: 'permission_denied' }),
  sandboxed: () => true,
};

test('embind_module.d.ts declares exactly the bound methods of Engine', () => {
  assert.equal(typeof module.Engine, 'function');
  const bound = Object.getOwnPropertyNames(module.Engine.prototype).filter((n) => n !== 'constructor');
  const declared = declaredMethods('EmbindEngine');
  assert.deepEqual([...bound].sort(), declared.filter((n) => n !== 'delete').sort());
  const engine = new module.Engine();
  for (const name of declared) assert.equal(typeof engine[name], 'function', name);
  engine.delete();
});

test('the module exports one bound class and nothing session-shaped', () => {
  // Embind's own error classes (BindingError, …) aside.
  const classes = Object.keys(module)
    .filter((k) => /^[A-Z]/.test(k) && !k.endsWith('Error') && typeof module[k] === 'function');
  assert.deepEqual(classes, ['Engine']);
});

test('open() answers 0 for malformed FileSystem maps and registers nothing', () => {
  const engine = new module.Engine();
  const bad = [42, 'fs', true, { workspace: 42 }, { workspace: null }, { workspace: {} },
    { workspace: { ...fakeFs, read: 'no' } }, { '': fakeFs }, { ok: fakeFs, bad: {} }];
  for (const arg of bad) assert.equal(engine.open(arg), 0, JSON.stringify(arg));
  assert.equal(engine.call(0, 'stats', '{}'), '{"v":1,"ok":true,"value":{"open_handles":0}}');
  const handles = [engine.open(undefined), engine.open(null), engine.open({}), engine.open({ workspace: fakeFs })];
  assert.ok(handles.every((h) => h > 0));
  assert.equal(new Set(handles).size, 4);
  assert.equal(engine.call(0, 'stats', '{}'), '{"v":1,"ok":true,"value":{"open_handles":4}}');
  handles.forEach((h) => engine.close(h));
  engine.delete();
});

test('call() and close() never throw on unknown handles', () => {
  const engine = new module.Engine();
  assert.match(engine.call(7, 'anything', '{}'), /^\{"v":1,"ok":false,"error":\{"code":"bad_handle"/);
  engine.close(7);
  engine.close(0);
  assert.equal(engine.version(), JSON.parse(engine.call(0, 'version', '{}')).value.version);
  engine.delete();
});

test('sessions release their JS FileSystem references on close (no emval leak)', () => {
  const engine = new module.Engine();
  const before = module.count_emval_handles();
  const handles = [];
  for (let i = 0; i < 1000; i++) handles.push(engine.open({ workspace: fakeFs, other: fakeFs }));
  assert.ok(module.count_emval_handles() >= before + 1000);
  handles.forEach((h) => engine.close(h));
  assert.equal(module.count_emval_handles(), before);
  engine.delete();
});
