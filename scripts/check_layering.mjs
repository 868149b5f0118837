#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Layering check, run by scripts/check.mjs (so by `npm test`). The rules (docs/architecture.md,
// "Module map" and "The boundary"):
//  - core/src/<module>/… includes are module-rooted ("protocol/json_value.h"); the first path
//    segment is the included module;
//  - `agentctx/…` (core/include public headers and the generated agentctx/version.h,
//    agentctx/prompts.inc) may be included from anywhere;
//  - core/include/agentctx/* public headers may include only other `agentctx/…` headers;
//  - a module may include itself and exactly the modules MODULE_EDGES lists for it: the table is
//    the exact graph of allowed direct edges (nothing is allowed by transitivity), it must stay
//    acyclic, and an edge no include uses is reported as stale, so the table never allows more
//    than the code does;
//  - docs/architecture.md shows the same table between its `layering-table` markers;
//  - the boundaries (wasm/src, wasi-host/guest, wasi-host/include) may include only core public
//    headers (`agentctx/…`) and files of their own folder (a bare file name).
//
// Usage: node scripts/check_layering.mjs            check; exit 1 on violations
//        node scripts/check_layering.mjs --graph    also print the module edges in use today
//        node scripts/check_layering.mjs --table    print the table as docs/architecture.md has it
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// The one table of allowed direct edges (A: [B…] means a file of A may include a header of B).
// `session` and `mock_model` never include each other: client and server meet only as bytes.
export const MODULE_EDGES = {
  engine: ['session', 'mock_model', 'rollout', 'provider', 'protocol', 'support'],
  session: ['compaction', 'tools', 'rollout', 'provider', 'prompt', 'world_state', 'agents_md', 'protocol', 'support'],
  compaction: ['world_state', 'protocol', 'support'],
  rollout: ['provider', 'prompt', 'protocol', 'support'],
  mock_model: ['provider', 'prompt', 'world_state', 'protocol', 'support'],
  provider: ['prompt', 'protocol', 'support'],
  tools: ['protocol', 'support'],
  prompt: ['protocol', 'support'],
  world_state: ['agents_md', 'protocol', 'support'],
  agents_md: ['protocol', 'support'],
  protocol: ['support'],
  support: [],
};

/// Throws when MODULE_EDGES names an unknown module or has a cycle.
export function checkTable(edges = MODULE_EDGES) {
  const state = new Map();
  const visit = (m, path) => {
    if (!(m in edges)) throw new Error(`MODULE_EDGES names unknown module ${m}`);
    if (state.get(m) === 'done') return;
    if (state.get(m) === 'open') throw new Error(`MODULE_EDGES has a cycle: ${[...path, m].join(' -> ')}`);
    state.set(m, 'open');
    for (const d of edges[m]) visit(d, [...path, m]);
    state.set(m, 'done');
  };
  for (const m of Object.keys(edges)) visit(m, []);
}

/// The table as a Markdown table (docs/architecture.md holds exactly this text).
export function renderTable(edges = MODULE_EDGES) {
  const rows = Object.entries(edges).map(([m, to]) => `| \`${m}\` | ${to.length ? to.map((t) => `\`${t}\``).join(', ') : '—'} |`);
  return ['| module | may include |', '|---|---|', ...rows].join('\n');
}

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
  checkTable();
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
    if (!(from in MODULE_EDGES)) {
      failures.push(`${rel(file)}: module core/src/${from} is not in MODULE_EDGES (scripts/check_layering.mjs); add it, and to docs/architecture.md`);
      continue;
    }
    for (const { line, target } of quotedIncludes(readFileSync(file, 'utf8'))) {
      if (target.startsWith(PUBLIC_PREFIX)) continue;
      const to = target.includes('/') ? target.split('/')[0] : null;
      if (to === null || !(to in MODULE_EDGES)) {
        failures.push(`${rel(file)}:${line}: "${target}" is not a module-rooted include (core/src/<module>/… or agentctx/…)`);
        continue;
      }
      if (to !== from) edges.set(`${from} -> ${to}`, (edges.get(`${from} -> ${to}`) ?? 0) + 1);
      if (to !== from && !MODULE_EDGES[from].includes(to)) {
        failures.push(`${rel(file)}:${line}: ${from} -> ${to} ("${target}") is not an allowed edge (the table in scripts/check_layering.mjs and docs/architecture.md)`);
      }
    }
  }

  for (const dir of BOUNDARY_DIRS) {
    for (const file of walk(join(root, dir))) {
      for (const { line, target } of quotedIncludes(readFileSync(file, 'utf8'))) {
        if (target.startsWith(PUBLIC_PREFIX) || !target.includes('/')) continue;
        failures.push(`${rel(file)}:${line}: "${target}": ${dir} may include only core public headers (agentctx/…) and its own files`);
      }
    }
  }
  for (const [from, tos] of Object.entries(MODULE_EDGES)) {
    for (const to of tos) {
      if (!edges.has(`${from} -> ${to}`)) {
        failures.push(`MODULE_EDGES allows ${from} -> ${to}, which no include uses: remove it (here and in docs/architecture.md)`);
      }
    }
  }
  const doc = (() => {
    try { return readFileSync(join(root, 'docs/architecture.md'), 'utf8'); } catch { return undefined; }
  })();
  const m = doc === undefined ? null : /<!-- layering-table -->\n([\s\S]*?)\n<!-- \/layering-table -->/.exec(doc);
  if (m === null) {
    failures.push('docs/architecture.md: the module table between <!-- layering-table --> markers is missing (node scripts/check_layering.mjs --table prints it)');
  } else if (m[1] !== renderTable()) {
    failures.push('docs/architecture.md: the module table differs from MODULE_EDGES (node scripts/check_layering.mjs --table prints it)');
  }
  return { failures, edges };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
  const { failures, edges } = checkLayering(root);
  if (process.argv.includes('--table')) console.log(renderTable());
  if (process.argv.includes('--graph')) {
    for (const [e, n] of [...edges].sort()) console.log(`${e}  (${n})`);
  }
  if (failures.length) {
    console.error('check_layering: FAILED\n' + failures.map((f) => ' - ' + f).join('\n'));
    process.exit(1);
  }
  console.log(`check_layering: ok (${edges.size} module edges)`);
}
