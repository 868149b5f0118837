// SPDX-License-Identifier: MIT
// Shared helpers for wasi-host/test: where the assembled host lives, temp trees, and a tiny
// hand-encoded wasm module for the trap tests (no compiler needed at test time).
import { spawn } from 'node:child_process';
import {
  existsSync, lstatSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** The assembled host (scripts/assemble_package.mjs or wasi-host/scripts/assemble_wasi.mjs). */
export const DIST = join(REPO, 'wasm/dist/wasi');
export const WASM = join(DIST, 'agentctx.wasm');
export const CLI = join(DIST, 'cli.js');

/** Imports the built host; fails with the command to run when it is missing. */
export async function loadHost() {
  for (const f of ['guest.js', 'sandbox.js', 'cli.js', 'agentctx.wasm']) {
    if (!existsSync(join(DIST, f))) {
      throw new Error(`${join(DIST, f)} is missing: build with \`cmake --workflow --preset wasi\` ` +
        'then run `node scripts/assemble_package.mjs` (or `node wasi-host/scripts/assemble_wasi.mjs`)');
    }
  }
  const guest = await import(join(DIST, 'guest.js'));
  const sandbox = await import(join(DIST, 'sandbox.js'));
  return { ...guest, ...sandbox };
}

/**
 * A temp tree from {relative path: contents | {symlink: target}}; directories end with '/'.
 * Returns { dir, cleanup }.
 */
export function tempTree(spec = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'agentctx-wasi-'));
  for (const [rel, value] of Object.entries(spec)) {
    const p = join(dir, rel);
    if (rel.endsWith('/')) {
      mkdirSync(p, { recursive: true });
      continue;
    }
    mkdirSync(dirname(p), { recursive: true });
    if (typeof value === 'object') symlinkSync(value.symlink, p);
    else writeFileSync(p, value);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Header function names: every `ACTX_EXPORT(name)` (checked against the declared name). */
export function headerExports(headerText) {
  const names = [];
  const re = /^ACTX_EXPORT\((\w+)\)\s*([^;]*?)\b(\w+)\s*\(/gm;
  for (const m of headerText.matchAll(re)) {
    if (m[1] !== m[3]) throw new Error(`ACTX_EXPORT(${m[1]}) declares ${m[3]}`);
    names.push(m[1]);
  }
  return names;
}

// --- a tiny wasm module with the ABI's export names, for trap tests --------------------------
const uleb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
};
const sleb = (n) => {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
};
const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];
const vec = (items) => [...uleb(items.length), ...items.flat()];
const str = (s) => vec([...Buffer.from(s)].map((b) => [b]));

/**
 * Encodes a module exporting `memory` (1 page) and functions `{name: body}`, where a body is
 * a number (returns that i32) or 'trap' (unreachable). Every function has type () -> i32; JS
 * callers may pass arguments, which are ignored.
 */
export function tinyModule(functions) {
  const names = Object.keys(functions);
  const types = section(1, vec([[0x60, 0x00, 0x01, 0x7f]]));
  const funcs = section(3, vec(names.map(() => [0x00])));
  const memory = section(5, vec([[0x00, 0x01]]));
  const exports = section(7, vec([
    [...str('memory'), 0x02, 0x00],
    ...names.map((n, i) => [...str(n), 0x00, ...uleb(i)]),
  ]));
  const bodies = names.map((n) => {
    const v = functions[n];
    const code = v === 'trap' ? [0x00] : [0x41, ...sleb(v)];
    const body = [0x00, ...code, 0x0b]; // no locals, code, end
    return [...uleb(body.length), ...body];
  });
  const code = section(10, vec(bodies));
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...types, ...funcs, ...memory, ...exports, ...code]);
}

/**
 * Runs the built CLI asynchronously (the test's own servers keep answering meanwhile).
 * Resolves {code, stdout, stderr}; kills the process after `timeoutMs`. `onSpawn(child)` gets
 * the child process (to signal it).
 */
export function runCli(args, { cwd, env = {}, input = '', timeoutMs = 20000, onSpawn } = {}) {
  return new Promise((resolve, reject) => {
    const base = { ...process.env };
    delete base.AGENTCTX_HOME;
    delete base.OPENAI_API_KEY;
    delete base.ANTHROPIC_API_KEY;
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd, env: { ...base, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? `signal ${signal}` : null), stdout, stderr });
    });
    child.stdin.end(input);
    onSpawn?.(child);
  });
}

/** The JSON lines of a rollout (or any JSONL) file. */
export function readJsonl(path) {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

/** Every file below `dir` (relative paths, sorted). */
export function listFiles(dir) {
  const out = [];
  const walk = (rel) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, r));
      if (st.isDirectory()) walk(r);
      else out.push(r);
    }
  };
  if (existsSync(dir)) walk('');
  return out;
}

/**
 * Starts `agentctx serve-mock --port 0 --clock=step:1000` as a child process; resolves to
 * { child, baseURL } (baseURL ends in /v1) once it prints its address.
 */
export async function startServeMock() {
  const child = spawn(process.execPath, [CLI, 'serve-mock', '--port', '0', '--clock=step:1000'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const baseURL = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve-mock exited ${code}`)));
    setTimeout(() => reject(new Error('serve-mock did not start')), 10000).unref();
  });
  return { child, baseURL };
}
