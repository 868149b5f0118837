// SPDX-License-Identifier: MIT
// Module sizes: raw and gzip (zlib's default level, as scripts/assemble_package.mjs
// measures its budget) of the Embind module (agentctx.wasm + agentctx.mjs) and the WASI
// reactor; the section split of each .wasm (code vs data vs the rest); and, as a hint of what
// pulls weight, the pre-link object sizes of the wasm build per core module (build/wasm, when
// present: inline code shared by several files is counted once per file, so only the
// proportions mean something); and whether each .wasm uses bulk-memory instructions
// (memory.copy / memory.fill, counted with binaryen's wasm-dis when installed): without them
// memcpy and memset run as wasm loops.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST, ROOT } from './dist.mjs';

const SECTION_NAMES = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'datacount'];

/** { name: bytes } of a wasm binary's sections. */
export function wasmSections(bytes) {
  const out = {};
  let at = 8;
  const leb = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[at++];
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if ((b & 0x80) === 0) return result;
    }
  };
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const name = SECTION_NAMES[id] ?? `id${id}`;
    out[name] = (out[name] ?? 0) + size;
    at += size;
  }
  return out;
}

/** memory.copy + memory.fill instructions in a .wasm, or null without wasm-dis. */
function bulkMemoryOps(path) {
  const r = spawnSync('wasm-dis', [path], { encoding: 'utf8', maxBuffer: 512 << 20 });
  if (r.status !== 0) return null;
  return (r.stdout.match(/\bmemory\.(copy|fill)\b/g) ?? []).length;
}

function file(path) {
  const bytes = readFileSync(path);
  const wasm = path.endsWith('.wasm');
  return {
    path: relative(ROOT, path), bytes: bytes.length, gzip: gzipSync(bytes).length,
    sections: wasm ? wasmSections(bytes) : undefined, bulk_memory_ops: wasm ? bulkMemoryOps(path) : undefined,
  };
}

function objectWeights() {
  const dir = join(ROOT, 'build/wasm/CMakeFiles/agentctx_core.dir/core/src');
  if (!existsSync(dir)) return null;
  const weights = {};
  const visit = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) visit(p);
      else if (name.endsWith('.o')) {
        const module = relative(dir, p).split('/')[0];
        weights[module] = (weights[module] ?? 0) + statSync(p).size;
      }
    }
  };
  visit(dir);
  return Object.entries(weights).sort((a, b) => b[1] - a[1]).map(([module, bytes]) => ({ module, bytes }));
}

export function moduleSizes() {
  const wasm = file(join(DIST, 'agentctx.wasm'));
  const mjs = file(join(DIST, 'agentctx.mjs'));
  const wasi = file(join(DIST, 'wasi/agentctx.wasm'));
  return {
    embind: { wasm, mjs, gzip: wasm.gzip + mjs.gzip, bytes: wasm.bytes + mjs.bytes },
    wasi,
    objects: objectWeights(),
  };
}
