// SPDX-License-Identifier: MIT
// The reactor's boundary: its exports are exactly the functions of
// wasi-host/include/agentctx_abi.h (plus the reactor's memory and _initialize), and its imports
// are wasi_snapshot_preview1 functions from an allowlist. Model HTTP is never an import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, WASM, headerExports, loadHost } from './helpers.mjs';

await loadHost(); // fails early with the build command when the host is missing

// What a reactor using fopen, opendir and stat needs to import, and nothing else.
const ALLOWED_IMPORTS = new Set([
  'fd_close', 'fd_fdstat_get', 'fd_fdstat_set_flags', 'fd_prestat_get', 'fd_prestat_dir_name',
  'fd_read', 'fd_readdir', 'fd_seek', 'fd_write', 'path_filestat_get', 'path_open', 'proc_exit',
  // PosixFileSystem: fstat (Read answers is_a_directory) and mkdir (Write's create_parents).
  'fd_filestat_get', 'path_create_directory',
  // PosixFileSystem::RemoveFile (apply_patch deletes and moves); refused on read-only roots.
  'path_unlink_file',
]);
// Exports the reactor has besides the header's functions.
const REACTOR_EXPORTS = [['memory', 'memory'], ['_initialize', 'function']];

const header = readFileSync(join(REPO, 'wasi-host/include/agentctx_abi.h'), 'utf8');
const module = new WebAssembly.Module(readFileSync(WASM));

test('the header declares the ABI the guest exports (docs/boundary.md)', () => {
  assert.deepEqual(headerExports(header), [
    'actx_abi_version', 'actx_alloc', 'actx_free', 'actx_open', 'actx_close', 'actx_call',
    'actx_output_ptr', 'actx_output_len', 'actx_attach', 'actx_attachment_count',
    'actx_attachment_ptr', 'actx_attachment_len',
  ]);
});

test('exports match the header exactly', () => {
  const expected = [
    ...REACTOR_EXPORTS.map(([name, kind]) => `${name}:${kind}`),
    ...headerExports(header).map((n) => `${n}:function`),
  ].sort();
  const actual = WebAssembly.Module.exports(module).map((e) => `${e.name}:${e.kind}`).sort();
  assert.deepEqual(actual, expected);
});

test('imports are allowlisted wasi_snapshot_preview1 functions', () => {
  const imports = WebAssembly.Module.imports(module);
  assert.ok(imports.length > 0);
  for (const i of imports) {
    assert.equal(i.module, 'wasi_snapshot_preview1', `${i.module}.${i.name}`);
    assert.equal(i.kind, 'function', i.name);
    assert.ok(ALLOWED_IMPORTS.has(i.name), `import ${i.name} is not on the allowlist`);
  }
});

test('host sources never import node:process (it makes fd 0 non-blocking)', async () => {
  const { readdirSync } = await import('node:fs');
  const dir = join(REPO, 'wasi-host/src');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    const text = readFileSync(join(dir, name), 'utf8');
    assert.doesNotMatch(text, /from\s+['"](node:)?process['"]|import\(\s*['"](node:)?process['"]/, name);
  }
});
