#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Fallback for working on the WASI host alone: does the WASI half of
// scripts/assemble_package.mjs (the one real assembly step): `tsc -p wasi-host/tsconfig.json`
// into wasm/dist/wasi/, then copies build/wasi/wasi-host/agentctx.wasm next to it.
// Usage (from the repo root, after `cmake --build --preset wasi`):
//   node wasi-host/scripts/assemble_wasi.mjs
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasm = join(root, 'build/wasi/wasi-host/agentctx.wasm');
const out = join(root, 'wasm/dist/wasi');
if (!existsSync(wasm)) {
  console.error(`assemble_wasi: ${wasm} is missing; run: cmake --workflow --preset wasi`);
  process.exit(1);
}
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'wasi-host/tsconfig.json')], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
mkdirSync(out, { recursive: true });
copyFileSync(wasm, join(out, 'agentctx.wasm'));
console.log(`assemble_wasi: ${out}`);
