#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Layering check (ARCHITECTURE §3, §4), run by scripts/check.mjs (so by `npm test`).
//
// Every `#include "…"` in core/src and core/include must follow an allowed module edge:
//  - core/src/<module>/… includes are module-rooted ("protocol/json_value.h"); the first path
//    segment is the included module;
//  - `agentctx/…` (core/include public headers and the generated agentctx/version.h,
//    agentctx/prompts.inc) may be included from anywhere;
//  - core/include/agentctx/* public headers may include only other `agentctx/…` headers;
//  - a module may include itself and every module reachable from it in MODULE_EDGES
//    (transitive edges downward are allowed; the table must stay acyclic).
// The boundaries (wasm/src, wasi-host/guest, wasi-host/include) may include only core public
// headers (`agentctx/…`) and files of their own folder (a bare file name), ARCHITECTURE §3.
//
// Usage: node scripts/check_layering.mjs            check; exit 1 on violations
//        node scripts/check_layering.mjs --graph    also print the module edges in use today
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// The one table of allowed direct edges (A: [B…] means A may include B). It is ARCHITECTURE §4's
// graph plus the commented extras; everything reachable is allowed too.
//   engine -> session -> compaction -> prompt -> world_state -> agents_md -> protocol -> support
//   engine -> mock_model -> prompt          session -> tools   -> protocol
//                                           session -> rollout -> protocol
// Edges in use today that hold only through that closure (kept here as a record):
//   engine -> rollout       rollout.inspect replay (engine -> session -> rollout)
//   engine -> protocol, support             envelopes, JSON
//   session -> prompt, world_state, agents_md (session -> compaction -> prompt -> …): the
//                           session assembles the request and owns the world state and the
//                           AGENTS.md manager
//   world_state -> agents_md  the agents_md section renders the AGENTS.md fragment (direct in §4)
//   tools -> support, mock_model -> support  (through protocol)
// `session` and `mock_model` never include each other (client and server meet only as bytes).
export const MODULE_EDGES = {
  engine: ['session', 'mock_model'],
  session: ['compaction', 'tools', 'rollout', 'provider'],
  provider: ['prompt'],
  compaction: ['prompt'],
  prompt: ['world_state'],
  world_state: ['agents_md'],
  agents_md: ['protocol'],
  // mock_model reads a request body as the provider would: prompt/prompt_bytes (the bytes a
  // prompt cache sees) and world_state/message_kind (which messages are context fragments, to
  // find the user's real request). It never includes session, compaction or tools.
  mock_model: ['provider'],
  tools: ['protocol'],
  // Extra edge: rollout/replay.cc (rollout.inspect, SPEC §13) re-runs the prompt module's
  // cache-break explainer over the recorded requests. prompt never includes rollout, so the
  // graph stays acyclic; it also lets rollout reach world_state and agents_md (unused today).
  rollout: ['protocol', 'provider'],
  protocol: ['support'],
  support: [],
};

const PUBLIC_PREFIX = 'agentctx/';
const BOUNDARY_DIRS = ['wasm/src', 'wasi-host/guest', 'wasi-host/include'];

/// module -> Set of modules it may include (itself and everything reachable).
export function allowedClosure(edges = MODULE_EDGES) {
  const closure = new Map();
  const visit = (m, path) => {
    if (path.includes(m)) throw new Error(`MODULE_EDGES has a cycle: ${[...path, m].join(' -> ')}`);
    if (closure.has(m)) return closure.get(m);
    if (!(m in edges)) throw new Error(`MODULE_EDGES names unknown module ${m}`);
    const out = new Set([m]);
    for (const d of edges[m]) for (const x of visit(d, [...path, m])) out.add(x);
    closure.set(m, out);
    return out;
  };
  for (const m of Object.keys(edges)) visit(m, []);
  return closure;
}

function walk(dir, out = []) {
  let names;
  try { names = readdirSync(dir); } catch { return out; }
  for (const n of names.sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(h|cc|inc)$/.test(n)) out.push(p);
  }
  return out;
}

/// The quoted includes of a C++ file, comments removed: [{line, target}].
export function quotedIncludes(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  const out = [];
  code.split('\n').forEach((l, i) => {
    const m = /^\s*#\s*include\s*"([^"]+)"/.exec(l.replace(/\/\/.*$/, ''));
    if (m) out.push({ line: i + 1, target: m[1] });
  });
  return out;
}

/// Checks the tree under `root`; returns {failures: [string], edges: Map("a -> b", count)}.
export function checkLayering(root = '.') {
  const closure = allowedClosure();
  const failures = [];
  const edges = new Map();
  const rel = (p) => relative(root, p).split('\\').join('/');

  for (const file of walk(join(root, 'core/include'))) {
    for (const { line, target } of quotedIncludes(readFileSync(file, 'utf8'))) {
      if (!target.startsWith(PUBLIC_PREFIX)) {
        failures.push(`${rel(file)}:${line}: public header includes "${target}" (core/include may include only agentctx/… headers)`);
      }
    }
  }

  for (const file of walk(join(root, 'core/src'))) {
    const from = rel(file).split('/')[2];
    if (!closure.has(from)) {
      failures.push(`${rel(file)}: module core/src/${from} is not in MODULE_EDGES (scripts/check_layering.mjs); add it where ARCHITECTURE §4 places it`);
      continue;
    }
    for (const { line, target } of quotedIncludes(readFileSync(file, 'utf8'))) {
      if (target.startsWith(PUBLIC_PREFIX)) continue;
      const to = target.includes('/') ? target.split('/')[0] : null;
      if (to === null || !closure.has(to)) {
        failures.push(`${rel(file)}:${line}: "${target}" is not a module-rooted include (core/src/<module>/… or agentctx/…)`);
        continue;
      }
      if (to !== from) edges.set(`${from} -> ${to}`, (edges.get(`${from} -> ${to}`) ?? 0) + 1);
      if (!closure.get(from).has(to)) {
        failures.push(`${rel(file)}:${line}: ${from} -> ${to} ("${target}") is not an allowed edge (ARCHITECTURE §4; table in scripts/check_layering.mjs)`);
      }
    }
  }

  for (const dir of BOUNDARY_DIRS) {
    for (const file of walk(join(root, dir))) {
      for (const { line, target } of quotedIncludes(readFileSync(file, 'utf8'))) {
        if (target.startsWith(PUBLIC_PREFIX) || !target.includes('/')) continue;
        failures.push(`${rel(file)}:${line}: "${target}": ${dir} may include only core public headers (agentctx/…) and its own files (ARCHITECTURE §3)`);
      }
    }
  }
  return { failures, edges };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
  const { failures, edges } = checkLayering(root);
  if (process.argv.includes('--graph')) {
    for (const [e, n] of [...edges].sort()) console.log(`${e}  (${n})`);
  }
  if (failures.length) {
    console.error('check_layering: FAILED\n' + failures.map((f) => ' - ' + f).join('\n'));
    process.exit(1);
  }
  console.log(`check_layering: ok (${edges.size} module edges)`);
}
