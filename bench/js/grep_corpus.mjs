// SPDX-License-Identifier: MIT
// The grep benchmark's corpus and cases (bench/run.mjs writes them into its temp dir; the native
// binary reads the cases file, `--actx_grep_cases=FILE`, and ripgrep runs beside it).
// Deterministic: a fixed xorshift generator, so every run searches the same bytes.
//   one.txt   a ~210 KB file of code-like lines, about half of its bytes on long (minified-like,
//             2–8 KB) lines, where the NFA simulation has the most threads (scale 1; the smoke
//             uses a tenth)
//   tree/dNN/fNNN.src   ~10 MB in 20 × 20 files of ~25 KB (the smoke: a few files)
// Invariants the cases rely on (each pathological pattern must scan the whole corpus, so it
// matches fewer lines than grep's 200-match cap): the vocabulary has no `x` and no `=`; lines
// end in punctuation; `x`, `=`, word endings, the 500 rare words, the 10 tree identifiers, the
// (?i) word, the plain literal and TODO are planted on a few lines only. Directories hold only
// directories or only files, so grep's walk order (name order, depth first) equals a sort of
// the full paths, and so ripgrep's sorted output.
//   node bench/js/grep_corpus.mjs --out=DIR [--scale=1]   writes the corpus and DIR/cases.tsv
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const VOCAB = ['return', 'const', 'value', 'buffer', 'result', 'error', 'count', 'string', 'handle', 'request',
  'offset', 'length', 'state', 'config', 'parse', 'write', 'read', 'open', 'close', 'node', 'list', 'item', 'path',
  'name', 'data', 'size', 'line', 'token', 'block', 'self', 'let', 'mut', 'if', 'else', 'for', 'while', 'match',
  'some', 'none', 'ok', 'err', 'vec', 'map', 'into', 'from', 'as', 'ref', 'impl', 'pub', 'fn', 'struct', 'enum',
  'use', 'crate', 'super', 'async', 'await', 'loop', 'break', 'continue', 'true', 'false', 'debug', 'info', 'warn',
  'trace', 'span', 'event', 'field', 'record', 'entry', 'cache', 'store', 'load', 'save', 'flush', 'sync', 'lock',
  'guard', 'drop', 'clone', 'copy', 'send', 'recv', 'chan', 'task', 'spawn', 'join', 'wait', 'poll', 'ready',
  'pending', 'future', 'stream', 'sink', 'frame', 'codec', 'bytes', 'slice', 'range', 'start', 'end', 'step',
  'Client', 'Server', 'Handler', 'Router', 'Session', 'Engine', 'Parser', 'Reader', 'Writer', 'Builder', 'Options',
  'HTTP', 'JSON', 'UTF8', 'ID', 'URL', 'API', '0', '1', '2', '16', '42', '255', '1024', '"ok"', '"name"', '\'c\'']
  .filter((w) => !/[xX=]/.test(w));
const PUNCT_END = [';', ';', ';', '{', '}', ')', ',', ':', ');', '];'];
const SEP = [' ', ' ', ' ', ', ', '(', '.', '::', ' & ', ' + ', '->', '[', ' < ', ' > '];

function word(r) {
  return VOCAB[Math.floor(r() * VOCAB.length)];
}

function rareWord(r) {
  const letters = 'abcdefghijklmnopqrstuvwyz'; // no x
  let w = 'q';
  const n = 4 + Math.floor(r() * 3);
  for (let i = 0; i < n; ++i) w += letters[Math.floor(r() * letters.length)];
  return w;
}

/** The 500 rare words of the literal-alternation case (seeded, stable). */
export function rareWords() {
  const r = rng(500);
  const set = new Set();
  while (set.size < 500) set.add(rareWord(r));
  return [...set];
}

export const TREE_IDENTS = ['alpha_handler', 'beta_parser', 'gamma_router', 'delta_codec', 'epsilon_store',
  'zeta_cache', 'eta_stream', 'theta_frame', 'iota_session', 'kappa_engine'];

// One code-like line of `words` words (default 3–12); `plant` (optional) is inserted among them.
function codeLine(r, plant, words) {
  const indent = ' '.repeat(4 * Math.floor(r() * 4));
  const n = words ?? 3 + Math.floor(r() * 10);
  const parts = [];
  for (let i = 0; i < n; ++i) {
    parts.push(word(r));
    if (i + 1 < n) parts.push(SEP[Math.floor(r() * SEP.length)]);
  }
  if (plant !== undefined) parts.splice(2 * Math.floor(r() * (n - 1)) + 1, 0, ` ${plant} `);
  return indent + parts.join('') + PUNCT_END[Math.floor(r() * PUNCT_END.length)];
}

// A run of `n` lower-case letters (vocabulary words run together), like an identifier blob.
function blob(r, n) {
  let s = '';
  while (s.length < n) s += word(r).toLowerCase().replace(/[^a-z]/g, '');
  return s.slice(0, n);
}

// `bytes` of lines; every `every`-th line (offset by the seed) carries one planted string.
function textOf(r, bytes, plants) {
  const lines = [];
  let size = 0;
  let n = 0;
  while (size < bytes) {
    let line;
    const p = plants.find((pl) => (n + pl.phase) % pl.every === 0);
    if (p) {
      line = p.make(r, n);
    } else {
      line = codeLine(r);
    }
    lines.push(line);
    size += line.length + 1;
    ++n;
  }
  return lines.join('\n') + '\n';
}

function fileText(scale) {
  const r = rng(210);
  const rare = rareWords();
  const plants = [
    { every: 97, phase: 11, make: (g) => codeLine(g, 'max_box') },                      // `x`
    { every: 89, phase: 23, make: (g) => codeLine(g, 'a = b') },                        // `=`
    { every: 101, phase: 37, make: (g) => codeLine(g).replace(/[^\w]+$/, ' done') },   // ends in a word
    { every: 131, phase: 5, make: (g) => codeLine(g, rare[Math.floor(g() * rare.length)]) },
    { every: 251, phase: 71, make: (g) => codeLine(g, '555-1234') },
    { every: 1777, phase: 1000, make: () => 'q'.repeat(1200) },                         // [a-z]{1000}
    { every: 61, phase: 3, make: (g) => codeLine(g, undefined, 300 + Math.floor(g() * 900)) }, // minified-like
    { every: 547, phase: 200, make: (g) => blob(g, 2000 + Math.floor(g() * 2000)) },      // [a-z] runs
    { every: 733, phase: 400, make: (g) => codeLine(g, 'max', 400 + Math.floor(g() * 400)) },  // long, with `x`
  ];
  return textOf(r, Math.round(210 * 1024 * scale), plants);
}

function treeText(seed, bytes) {
  const r = rng(seed);
  const plants = [
    { every: 4001, phase: (seed * 7919) % 4001, make: (g) => codeLine(g, TREE_IDENTS[Math.floor(g() * TREE_IDENTS.length)]) },
    { every: 4507, phase: (seed * 7919) % 4507, make: (g) => codeLine(g, ['DeadBeef', 'DEADBEEF', 'deadbeef'][Math.floor(g() * 3)]) },
    { every: 3989, phase: (seed * 7919) % 3989, make: (g) => codeLine(g, 'needle_in_haystack') },
    { every: 211, phase: (seed * 7919) % 211, make: (g) => codeLine(g, '// TODO: later') },
  ];
  return textOf(r, bytes, plants);
}

/**
 * The pathological set: the patterns the grep issue measured as stalling a session (a counted
 * wildcard, a 500-way alternation, nested stars, a long class repetition, a nested quantifier
 * with an anchor; over the tree a 10-way alternation, a case-folded and a plain literal). Its
 * targets (≤ 0.5 s on the file, ≤ 2 s over the tree natively, the wasm builds within 3× of
 * native) are the ones the report checks; the other cases are ordinary searches measured beside.
 */
export const PATHOLOGICAL_GREP_CASES = new Set(['dot200_x', 'dot1000_x', 'alt500_literals', 'dotstar8_eq', 'lower1000',
  'words_dollar', 'alt10_tree', 'fold_literal_tree', 'literal_tree']);

/** The cases: [name, corpus ('file' | 'tree'), pattern]; PATHOLOGICAL_GREP_CASES names the target set. */
export function grepCases() {
  return [
    ['dot200_x', 'file', '.{0,200}x'],
    ['dot1000_x', 'file', '.{0,1000}x'],
    ['alt500_literals', 'file', rareWords().join('|')],
    ['dotstar8_eq', 'file', '.*.*.*.*.*.*.*.*='],
    ['lower1000', 'file', '[a-z]{1000}'],
    ['words_dollar', 'file', '(\\w+\\s?)+$'],
    ['phone', 'file', '\\d{3}-\\d{4}'],
    ['return_word', 'file', '^\\s+return\\b'],
    ['alt10_tree', 'tree', TREE_IDENTS.join('|')],
    ['fold_literal_tree', 'tree', '(?i)deadbeef'],
    ['literal_tree', 'tree', 'needle_in_haystack'],
    ['todo_word_tree', 'tree', '\\bTODO\\b'],
    ['fn_call_tree', 'tree', 'fn \\w+\\('],
    ['absent_tree', 'tree', '^\\s*#include <zz'],
  ];
}

/** Writes the corpus under `dir`; returns {file, tree, bytes, files, cases} (paths absolute). */
export function writeGrepCorpus(dir, scale = 1) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'one.txt');
  const text = fileText(scale);
  writeFileSync(file, text);
  const tree = join(dir, 'tree');
  const dirs = scale >= 1 ? 20 : 3;
  const perDir = scale >= 1 ? 20 : 4;
  const fileBytes = Math.round(25 * 1024 * Math.min(scale, 1));
  let bytes = 0;
  for (let d = 0; d < dirs; ++d) {
    const sub = join(tree, `d${String(d).padStart(2, '0')}`);
    mkdirSync(sub, { recursive: true });
    for (let f = 0; f < perDir; ++f) {
      const t = treeText(1000 + d * 100 + f, fileBytes);
      bytes += t.length;
      writeFileSync(join(sub, `f${String(f).padStart(3, '0')}.src`), t);
    }
  }
  const cases = grepCases().map(([name, corpus, pattern]) => ({ name, corpus, pattern, path: corpus === 'file' ? file : tree }));
  writeFileSync(join(dir, 'cases.tsv'), cases.map((c) => `${c.name}\t${c.path}\t${c.pattern}`).join('\n') + '\n');
  return { dir, file, tree, file_bytes: text.length, tree_bytes: bytes, tree_files: dirs * perDir, cases, casesFile: join(dir, 'cases.tsv') };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
  const out = arg('out', null);
  if (!out) throw new Error('--out=DIR is required');
  const c = writeGrepCorpus(out, Number(arg('scale', 1)));
  process.stdout.write(JSON.stringify({ ...c, cases: c.cases.length }) + '\n');
}
