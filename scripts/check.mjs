#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Static checks run by `npm test`:
//  - clang-format-14 --dry-run -Werror over C++ sources;
//  - RapidJSON is included only by core/src/protocol/json_codec.cc;
//  - core/ does no I/O: no <fstream>/<filesystem>/<chrono>/<thread>/<random>, fopen, getenv,
//    stdout, throw/try;
//  - core/ never branches on or includes the target (one source for every build): no __wasi__,
//    __EMSCRIPTEN__, __wasm__/__wasm32__ macros, no <emscripten…>/<wasi/…> headers;
//  - layering (scripts/check_layering.mjs): core module include edges follow
//    the allowed graph; the boundaries include only core public headers;
//  - every file generated from core/protocol.json is fresh (scripts/gen_protocol.mjs renders them
//    in memory; any difference fails).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { staleFiles } from './gen_protocol.mjs';
import { checkLayering } from './check_layering.mjs';

const failures = [];
function walk(dir, out = []) {
  let names;
  try { names = readdirSync(dir); } catch { return out; }
  for (const n of names.sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}
const cpp = (f) => /\.(h|cc|cpp|def)$/.test(f) && !f.endsWith('.def');
const sources = ['core', 'wasm/src', 'wasi-host/guest', 'wasi-host/include', 'tests', 'bench']
  .flatMap((d) => walk(d)).filter(cpp).filter((f) => !f.includes('/fixtures/'));

const fmt = spawnSync('clang-format-14', ['--dry-run', '-Werror', ...sources], { encoding: 'utf8' });
if (fmt.status !== 0) failures.push(`clang-format-14: run clang-format-14 -i on:\n${fmt.stderr.split('\n').filter((l) => l.includes('error:')).map((l) => l.split(':')[0]).filter((v, i, a) => a.indexOf(v) === i).join('\n')}`);

for (const f of sources) {
  const text = readFileSync(f, 'utf8');
  if (/#include\s*[<"]rapidjson\//.test(text) && f !== 'core/src/protocol/json_codec.cc') {
    failures.push(`${f}: includes RapidJSON (only core/src/protocol/json_codec.cc may)`);
  }
  if (f.startsWith('core/')) {
    const code = text.replace(/\/\/.*$/gm, '');
    const banned = [
      [/#include\s*<(fstream|filesystem|chrono|thread|random|iostream)>/, 'an I/O, clock, thread or random header'],
      [/\b(fopen|getenv|printf|puts)\s*\(/, 'a direct I/O call'],
      [/\bstd::(cout|cerr)\b/, 'stdout/stderr'],
      [/\bthrow\b|\btry\s*\{/, 'exceptions'],
      [/\b__(wasi|EMSCRIPTEN|wasm|wasm32|wasm64)__\b/, 'a target macro (#ifdef __wasi__/__EMSCRIPTEN__): the core is target-neutral'],
      [/#include\s*[<"](emscripten[./]|wasi\/)/, 'an Emscripten or WASI header'],
    ];
    for (const [re, what] of banned) if (re.test(code)) failures.push(`${f}: core/ must not use ${what}`);
  }
}

failures.push(...checkLayering('.').failures);

for (const path of staleFiles()) {
  failures.push(`${path} is stale or missing: edit core/protocol.json, run node scripts/gen_protocol.mjs and commit`);
}

if (failures.length) {
  console.error('check: FAILED\n' + failures.map((f) => ' - ' + f).join('\n'));
  process.exit(1);
}
console.log(`check: ok (${sources.length} C++ files)`);
