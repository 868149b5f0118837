#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Generates every file derived from core/protocol.json, the one machine-readable description of
// the protocol (methods, effects, events, deliveries, config keys with types and defaults, enums,
// warning and error codes). The outputs are committed; scripts/check.mjs renders them in memory
// and fails on any difference, so a stale file cannot land.
//   node scripts/gen_protocol.mjs            write every generated file
//   import { renderAll } from './gen_protocol.mjs'   (path -> text, for the freshness check)
// Invariant: rendering is a pure function of the description (C++ goes through clang-format-14
// with the root .clang-format, so the output is what the formatter keeps).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { loadDescription } from './protocol/description.mjs';
import { renderErrorCodesDef, renderWireEnumsHeader } from './protocol/render_cpp.mjs';
import { renderErrorCodesTs, renderProtocolTs, renderConfigTs, renderCliEnumsTs } from './protocol/render_ts.mjs';
import { renderProtocolDoc, renderConfigDoc } from './protocol/render_docs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DESCRIPTION_PATH = 'core/protocol.json';

/** Every generated file: repo-relative path -> exact text. */
export function renderAll(descriptionText = readFileSync(join(root, DESCRIPTION_PATH), 'utf8')) {
  const d = loadDescription(descriptionText, DESCRIPTION_PATH);
  return new Map([
    ['core/include/agentctx/error_codes.def', renderErrorCodesDef(d)],
    ['core/include/agentctx/wire_enums.h', renderWireEnumsHeader(d, root)],
    ['wasm/ts/generated/error_codes.ts', renderErrorCodesTs(d)],
    ['wasm/ts/generated/protocol.ts', renderProtocolTs(d)],
    ['wasm/ts/generated/config.ts', renderConfigTs(d)],
    ['wasi-host/src/generated/cli_enums.ts', renderCliEnumsTs(d)],
    ['docs/protocol.md', renderProtocolDoc(d)],
    ['docs/config.md', renderConfigDoc(d)],
  ]);
}

/** Paths whose committed text differs from a fresh rendering (empty = all fresh). */
export function staleFiles() {
  const stale = [];
  for (const [path, text] of renderAll()) {
    let committed = null;
    try { committed = readFileSync(join(root, path), 'utf8'); } catch { /* missing = stale */ }
    if (committed !== text) stale.push(path);
  }
  return stale;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [path, text] of renderAll()) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    console.log(`gen_protocol: wrote ${path}`);
  }
}
