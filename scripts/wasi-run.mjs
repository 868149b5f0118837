#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Runs a WASI *command* module (e.g. the gtest binary) under node:wasi, for ctest.
// Usage: node scripts/wasi-run.mjs [--dir GUEST=HOST]... module.wasm [args...]
// Only the listed directories are preopened; the environment is empty. Uses the global
// `process` (importing node:process makes fd 0 non-blocking, so a guest reading stdin gets EAGAIN).
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';

process.removeAllListeners('warning'); // drop node:wasi's ExperimentalWarning

const argv = process.argv.slice(2);
const preopens = {};
while (argv[0] === '--dir') {
  const spec = argv[1] ?? '';
  const eq = spec.indexOf('=');
  if (eq <= 0) {
    console.error(`wasi-run: --dir wants GUEST=HOST, got '${spec}'`);
    process.exit(2);
  }
  preopens[spec.slice(0, eq)] = spec.slice(eq + 1);
  argv.splice(0, 2);
}
const [modulePath, ...args] = argv;
if (!modulePath) {
  console.error('usage: wasi-run.mjs [--dir GUEST=HOST]... module.wasm [args...]');
  process.exit(2);
}
const wasi = new WASI({ version: 'preview1', args: [modulePath, ...args], env: {}, preopens, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(modulePath));
// Every import through a JS frame, as the CLI's host does: node:wasi's functions called straight
// from wasm have crashed V8 (a heap check failing in a GC that a memory.grow started, in a test
// that grows the memory by hundreds of MB; cf. nodejs/node#53087), through a JS frame they do not.
const imports = wasi.getImportObject();
const preview1 = Object.fromEntries(Object.entries(imports.wasi_snapshot_preview1)
  .map(([name, f]) => [name, typeof f === 'function' ? (...a) => f(...a) : f]));
const instance = await WebAssembly.instantiate(module, { ...imports, wasi_snapshot_preview1: preview1 });
process.exitCode = wasi.start(instance);
