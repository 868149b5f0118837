#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Static server for the playground: web/ at "/", the built package wasm/dist at "/agentctx/".
// Binds 127.0.0.1 only; PORT env (default 0 = a random free port); prints the URL.
// Rules: GET/HEAD only; .wasm -> application/wasm, .mjs/.js -> text/javascript; /favicon.ico
// -> 204 (no console 404); no path traversal (decoded segments "..", "\", NUL are refused and
// the resolved path must stay under its root); no caching (a dev server). Text and .wasm files
// are sent gzip-compressed to clients that accept it (agentctx.wasm: ~290 KB instead of ~820
// KB), compressed once per file version.
// `--build` (npm start): listens and prints the URL first, then builds only what it serves —
// the Embind and WASI modules (BUILD_STEPS: their two targets, never the test suites) and the
// package — answering /agentctx/ with 503 until that is done, and says when the page is ready.
//   node scripts/serve.mjs [--build]   or   import { startServer } from './serve.mjs'
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.ts': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.wasm', '.ts', '.md', '.txt', '.svg']);

/** True when an Accept-Encoding header allows gzip (`gzip` or `*`, not with q=0). */
export function acceptsGzip(header) {
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';').map((x) => x.trim());
    if (name !== 'gzip' && name !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

// URL prefix -> directory; the longest matching prefix wins.
function mounts(webRoot, packageRoot) {
  return [
    ['/agentctx/', packageRoot],
    ['/', webRoot],
  ];
}

// Maps a request path to a file under one of the roots, or null when it is not allowed.
function resolvePath(urlPath, table) {
  for (const [prefix, dir] of table) {
    if (!urlPath.startsWith(prefix)) continue;
    let segments;
    try {
      segments = urlPath.slice(prefix.length).split('/').map((s) => decodeURIComponent(s));
    } catch {
      return null; // malformed %-escape
    }
    if (segments.some((s) => s === '..' || s === '.' || s.includes('\\') || s.includes('/') || s.includes('\0'))) {
      return null;
    }
    const file = resolve(dir, ...segments.filter((s) => s !== ''));
    return file === dir || file.startsWith(dir + sep) ? file : null;
  }
  return null;
}

function send(res, status, body = '', type = 'text/plain; charset=utf-8') {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
}

/**
 * What `npm start` builds: configure each preset, build only the module the playground loads
 * (Embind) and the one the CLI runs (WASI) — not the GoogleTest suites `npm test` builds — and
 * assemble the package. [command, args, quiet (stdout not shown)].
 */
export const BUILD_STEPS = [
  ['cmake', ['--preset', 'wasm'], true],
  ['cmake', ['--build', '--preset', 'wasm', '--target', 'agentctx_embind'], false],
  ['cmake', ['--preset', 'wasi'], true],
  ['cmake', ['--build', '--preset', 'wasi', '--target', 'agentctx_wasi'], false],
  [process.execPath, [join(repo, 'scripts/assemble_package.mjs')], false],
];

/** Runs BUILD_STEPS in order; resolves to the first failing step's exit code, or 0. */
export async function build(steps = BUILD_STEPS) {
  for (const [command, args, quiet] of steps) {
    const code = await new Promise((done) => {
      const child = spawn(command, args, { cwd: repo, stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'] });
      child.on('error', (e) => {
        console.error(`serve: ${command}: ${e.message}`);
        done(1);
      });
      child.on('exit', (c) => done(c ?? 1));
    });
    if (code !== 0) {
      console.error(`serve: the build failed at: ${command} ${args.join(' ')}`);
      return code;
    }
  }
  return 0;
}

/**
 * Starts the server. Resolves to {server, port, url, close(), setBuilding(flag)} once it
 * listens. Options: port (default 0), webRoot (default web/), packageRoot (default wasm/dist).
 * While `building` is set, /agentctx/ answers 503 (the package is being rebuilt).
 */
export async function startServer({ port = 0, webRoot = join(repo, 'web'), packageRoot = join(repo, 'wasm/dist') } = {}) {
  let building = false;
  const table = mounts(resolve(webRoot), resolve(packageRoot));
  const gzipped = new Map(); // file -> {mtimeMs, size, data}
  const compressed = (file, info, body) => {
    const hit = gzipped.get(file);
    if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit.data;
    const data = gzipSync(body);
    gzipped.set(file, { mtimeMs: info.mtimeMs, size: info.size, data });
    return data;
  };
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed\n');
    const urlPath = (req.url ?? '/').split('?')[0].split('#')[0];
    if (urlPath === '/favicon.ico') return send(res, 204);
    if (building && urlPath.startsWith('/agentctx/')) {
      return send(res, 503, 'agentctx is still being built: reload the page when npm start says it is ready\n');
    }
    let file = resolvePath(urlPath, table);
    if (file === null) return send(res, 404, 'not found\n');
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const info = await stat(file);
      let body = await readFile(file);
      const headers = {
        'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      };
      if (COMPRESSIBLE.has(extname(file))) {
        headers['Vary'] = 'Accept-Encoding';
        if (acceptsGzip(req.headers['accept-encoding'])) {
          body = compressed(file, info, body);
          headers['Content-Encoding'] = 'gzip';
        }
      }
      headers['Content-Length'] = body.length;
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      send(res, 404, 'not found\n');
    }
  });
  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const actual = server.address().port;
  return {
    server,
    port: actual,
    url: `http://127.0.0.1:${actual}/`,
    setBuilding: (flag) => { building = flag; },
    close: () => new Promise((r) => {
      server.closeAllConnections?.();
      server.close(() => r());
    }),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: PORT must be an integer 0-65535, got ${process.env.PORT}`);
    process.exit(1);
  }
  const buildFirst = process.argv.includes('--build');
  if (!buildFirst && !existsSync(join(repo, 'wasm/dist/index.js'))) {
    console.warn('serve: wasm/dist is not built yet (run: npm run build, or npm start)');
  }
  const { url, close, setBuilding } = await startServer({ port });
  const stop = () => close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (buildFirst) {
    setBuilding(true);
    console.log(`agentctx playground: ${url} (building the engine first; the page works once this says ready)`);
    const code = await build();
    if (code !== 0) {
      await close();
      process.exit(code);
    }
    setBuilding(false);
    console.log(`agentctx playground ready: ${url}`);
  } else {
    console.log(`agentctx playground: ${url}`);
  }
}
