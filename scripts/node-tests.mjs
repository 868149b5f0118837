#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Runs `node --test` over every *.test.mjs in wasm/test, wasi-host/test and e2e (sorted), so
// build outputs and node_modules are never picked up by the default discovery.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = process.argv.length > 2 ? process.argv.slice(2) : ['wasm/test', 'wasi-host/test', 'e2e'];
const files = [];
function walk(dir) {
  let names;
  try { names = readdirSync(dir); } catch { return; }
  for (const name of names.sort()) {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'out') continue;
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.mjs')) files.push(p);
  }
}
roots.forEach(walk);
if (files.length === 0) {
  console.error('node-tests: no *.test.mjs files found under', roots.join(', '));
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=1', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
