#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Assembles the npm package in wasm/dist — the one place the Embind and WASI halves meet:
//  1. refuses a missing or stale build (artifact freshness: a source newer than the artifact);
//  2. wipes wasm/dist, copies build/wasm/wasm/agentctx.{mjs,wasm} into it;
//  3. compiles wasm/ts with tsc (wasm/tsconfig.json -> wasm/dist, ESM + .d.ts);
//  4. WASI half, when present: copies build/wasi/wasi-host/agentctx.wasm to
//     wasm/dist/wasi/agentctx.wasm and compiles wasi-host/tsconfig.json (outDir ../wasm/dist/wasi;
//     its `import 'agentctx'` resolves by package self-reference, so step 3 comes first);
//     then makes dist/wasi/cli.js executable and links node_modules/.bin/agentctx to it;
//  5. checks the size budget: the Embind .wasm + .mjs ≤ 305 KB (305 000 bytes) gzip
//     (cmake/Emscripten.cmake says which modules are compiled -Oz to keep it);
//  6. copies the repository's LICENSE to wasm/LICENSE (git-ignored), so the tarball carries it
//     beside wasm/README.md.
import {
  chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'wasm/dist');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const SIZE_BUDGET_GZIP = 305 * 1000;

function fail(message) {
  console.error(`assemble_package: ${message}`);
  process.exit(1);
}

function newestFile(paths) {
  let newest = { path: null, mtime: 0 };
  const visit = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) {
      for (const name of readdirSync(p)) visit(join(p, name));
    } else if (s.mtimeMs > newest.mtime) {
      newest = { path: p, mtime: s.mtimeMs };
    }
  };
  paths.forEach((p) => visit(join(root, p)));
  return newest;
}

// The artifact must exist and be newer than every source it is built from.
function requireFresh(artifact, sources, rebuild) {
  const path = join(root, artifact);
  if (!existsSync(path)) fail(`${artifact} is missing; build it first: ${rebuild}`);
  const newest = newestFile(sources);
  if (newest.mtime > statSync(path).mtimeMs) {
    fail(`${artifact} is older than its source ${relative(root, newest.path)}; rebuild: ${rebuild}`);
  }
  return path;
}

function runTsc(project) {
  if (!existsSync(tsc)) fail('node_modules/typescript is missing; run npm ci');
  const r = spawnSync(process.execPath, [tsc, '-p', join(root, project)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) fail(`tsc -p ${project} failed`);
}

const CORE_SOURCES = ['core', 'CMakeLists.txt', 'cmake/Core.cmake', 'cmake/RapidJSON.cmake', 'cmake/version.h.in'];

// 1-2: the Embind half.
const wasmRebuild = 'cmake --workflow --preset wasm (or bash scripts/build.sh wasm)';
const embindSources = [...CORE_SOURCES, 'wasm/src', 'wasm/js', 'cmake/Emscripten.cmake'];
const embindWasm = requireFresh('build/wasm/wasm/agentctx.wasm', embindSources, wasmRebuild);
const embindMjs = requireFresh('build/wasm/wasm/agentctx.mjs', embindSources, wasmRebuild);
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
copyFileSync(embindMjs, join(dist, 'agentctx.mjs'));
copyFileSync(embindWasm, join(dist, 'agentctx.wasm'));

// 3: the TypeScript API.
runTsc('wasm/tsconfig.json');

// 4: the WASI half (the host sources decide whether it is expected).
const wasiArtifact = 'build/wasi/wasi-host/agentctx.wasm';
const hostTsconfig = 'wasi-host/tsconfig.json';
if (existsSync(join(root, hostTsconfig)) || existsSync(join(root, wasiArtifact))) {
  const wasiSources = [...CORE_SOURCES, 'wasi-host/guest', 'wasi-host/include', 'cmake/Wasi.cmake', 'cmake/toolchains'];
  const wasiWasm = requireFresh(wasiArtifact, wasiSources, 'cmake --workflow --preset wasi (or bash scripts/build.sh wasi)');
  mkdirSync(join(dist, 'wasi'), { recursive: true });
  copyFileSync(wasiWasm, join(dist, 'wasi/agentctx.wasm'));
  if (existsSync(join(root, hostTsconfig))) {
    runTsc(hostTsconfig);
    linkBin();
  }
} else {
  console.log('assemble_package: no WASI half yet (wasi-host/tsconfig.json, build/wasi/wasi-host/agentctx.wasm): skipped');
}

// The package's bin (`agentctx` -> dist/wasi/cli.js) only exists after this build, so `npm ci`
// could not link it: make it executable and link node_modules/.bin/agentctx the way npm does,
// so `npx agentctx` finds the local CLI instead of asking the registry.
function linkBin() {
  const cli = join(dist, 'wasi/cli.js');
  if (!existsSync(cli)) return;
  chmodSync(cli, 0o755);
  const binDir = join(root, 'node_modules/.bin');
  if (!existsSync(join(root, 'node_modules/agentctx'))) return;
  mkdirSync(binDir, { recursive: true });
  const link = join(binDir, 'agentctx');
  rmSync(link, { force: true });
  symlinkSync('../agentctx/dist/wasi/cli.js', link);
}

// 5: size budget.
const gz = gzipSync(readFileSync(join(dist, 'agentctx.wasm'))).length + gzipSync(readFileSync(join(dist, 'agentctx.mjs'))).length;
if (gz > SIZE_BUDGET_GZIP) fail(`agentctx.wasm + agentctx.mjs are ${gz} bytes gzip, over the ${SIZE_BUDGET_GZIP} budget`);
// 6: the license travels with the package (npm packs only files under wasm/).
copyFileSync(join(root, 'LICENSE'), join(root, 'wasm/LICENSE'));

console.log(`assemble_package: wasm/dist ready (Embind module ${(gz / 1000).toFixed(1)} KB gzip of ${SIZE_BUDGET_GZIP / 1000} KB)`);
