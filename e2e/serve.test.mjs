// SPDX-License-Identifier: MIT
// scripts/serve.mjs: mounts, MIME types, favicon, methods and path traversal (raw request paths
// via node:http, since fetch() would normalise ".."); gzip; what `npm start` builds (--build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { gunzipSync } from 'node:zlib';

import { BUILD_STEPS, acceptsGzip, build, startServer } from '../scripts/serve.mjs';

function get(port, path, method = 'GET', headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({
        status: res.statusCode, type: res.headers['content-type'], encoding: res.headers['content-encoding'],
        length: Number(res.headers['content-length']), raw: Buffer.concat(chunks), body: Buffer.concat(chunks).toString(),
      }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('serve.mjs: mounts, MIME types, favicon, methods, traversal', { timeout: 30000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'agentctx-serve-'));
  let server;
  try {
    const web = join(tmp, 'web');
    const pkg = join(tmp, 'pkg');
    mkdirSync(join(web, 'sub'), { recursive: true });
    mkdirSync(pkg);
    writeFileSync(join(web, 'index.html'), '<p>home</p>');
    writeFileSync(join(web, 'main.js'), 'export {};');
    writeFileSync(join(web, 'sub/index.html'), 'sub');
    writeFileSync(join(pkg, 'index.js'), 'export const x = 1;');
    writeFileSync(join(pkg, 'agentctx.mjs'), 'export default 1;');
    writeFileSync(join(pkg, 'agentctx.wasm'), Buffer.from([0, 97, 115, 109]));
    writeFileSync(join(tmp, 'secret.txt'), 'secret');

    server = await startServer({ port: 0, webRoot: web, packageRoot: pkg });
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const p = server.port;

    const home = await get(p, '/');
    assert.equal(home.status, 200);
    assert.equal(home.type, 'text/html; charset=utf-8');
    assert.equal(home.body, '<p>home</p>');
    assert.equal((await get(p, '/sub/')).body, 'sub');
    assert.equal((await get(p, '/main.js')).type, 'text/javascript; charset=utf-8');
    assert.equal((await get(p, '/agentctx/index.js?v=1')).body, 'export const x = 1;');
    assert.equal((await get(p, '/agentctx/agentctx.mjs')).type, 'text/javascript; charset=utf-8');
    assert.equal((await get(p, '/agentctx/agentctx.wasm')).type, 'application/wasm');
    assert.equal((await get(p, '/favicon.ico')).status, 204);
    assert.equal((await get(p, '/nope.js')).status, 404);
    assert.equal((await get(p, '/', 'POST')).status, 405);
    const head = await get(p, '/agentctx/index.js', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');

    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/agentctx/../secret.txt',
      '/agentctx/%2e%2e/%2e%2e/secret.txt', '/..%2fsecret.txt', '/..%5csecret.txt', '/%00',
      '/%E0%A4%A', '/agentctx/..%2F..%2Fsecret.txt']) {
      const r = await get(p, path);
      assert.equal(r.status, 404, path);
      assert.notEqual(r.body, 'secret', path);
    }
  } finally {
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('serve.mjs: gzip for clients that accept it (npm start sends agentctx.wasm compressed)', { timeout: 30000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'agentctx-serve-gz-'));
  let server;
  try {
    const pkg = join(tmp, 'pkg');
    mkdirSync(pkg);
    mkdirSync(join(tmp, 'web'));
    const wasm = Buffer.alloc(64 * 1024, 7); // compresses well
    writeFileSync(join(pkg, 'agentctx.wasm'), wasm);
    writeFileSync(join(tmp, 'web', 'logo.png'), Buffer.from([137, 80, 78, 71]));
    server = await startServer({ port: 0, webRoot: join(tmp, 'web'), packageRoot: pkg });
    const gz = await get(server.port, '/agentctx/agentctx.wasm', 'GET', { 'accept-encoding': 'br, gzip' });
    assert.equal(gz.status, 200);
    assert.equal(gz.encoding, 'gzip');
    assert.equal(gz.type, 'application/wasm');
    assert.ok(gz.raw.length < wasm.length / 10, `${gz.raw.length} bytes`);
    assert.equal(gz.length, gz.raw.length);
    assert.deepEqual(gunzipSync(gz.raw), wasm);
    // The cached copy is served again; without gzip (or with q=0) the bytes go as they are.
    assert.deepEqual(gunzipSync((await get(server.port, '/agentctx/agentctx.wasm', 'GET', { 'accept-encoding': 'gzip' })).raw), wasm);
    for (const headers of [{}, { 'accept-encoding': 'gzip;q=0' }, { 'accept-encoding': 'identity' }]) {
      const plain = await get(server.port, '/agentctx/agentctx.wasm', 'GET', headers);
      assert.equal(plain.encoding, undefined, JSON.stringify(headers));
      assert.deepEqual(plain.raw, wasm);
    }
    // Already-compressed formats are never gzipped.
    assert.equal((await get(server.port, '/logo.png', 'GET', { 'accept-encoding': 'gzip' })).encoding, undefined);
  } finally {
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('acceptsGzip parses Accept-Encoding', () => {
  assert.equal(acceptsGzip('gzip, deflate, br'), true);
  assert.equal(acceptsGzip('*'), true);
  assert.equal(acceptsGzip('GZIP;q=0.5'), true);
  assert.equal(acceptsGzip('gzip;q=0'), false);
  assert.equal(acceptsGzip('br'), false);
  assert.equal(acceptsGzip(undefined), false);
});

test('npm start builds only what it serves, and answers 503 for the package while building', { timeout: 30000 }, async () => {
  const pkgJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  assert.match(pkgJson.scripts.start, /node scripts\/serve\.mjs --build$/);
  assert.doesNotMatch(pkgJson.scripts.start, /build\.sh/);
  // Every build step names its one target: the two modules, never `all` or the test suites.
  const builds = BUILD_STEPS.filter(([cmd, args]) => cmd === 'cmake' && args[0] === '--build');
  assert.deepEqual(builds.map(([, args]) => args.slice(args.indexOf('--target') + 1)), [['agentctx_embind'], ['agentctx_wasi']]);
  assert.ok(BUILD_STEPS.at(-1)[1][0].endsWith('scripts/assemble_package.mjs'));
  // A failing step stops the build with its exit code.
  assert.equal(await build([[process.execPath, ['-e', 'process.exit(3)'], true], [process.execPath, ['-e', 'throw 1'], true]]), 3);

  const tmp = mkdtempSync(join(tmpdir(), 'agentctx-serve-build-'));
  let server;
  try {
    mkdirSync(join(tmp, 'web'));
    mkdirSync(join(tmp, 'pkg'));
    writeFileSync(join(tmp, 'web', 'index.html'), 'home');
    writeFileSync(join(tmp, 'pkg', 'index.js'), 'export {};');
    server = await startServer({ port: 0, webRoot: join(tmp, 'web'), packageRoot: join(tmp, 'pkg') });
    server.setBuilding(true);
    assert.equal((await get(server.port, '/')).status, 200);
    const busy = await get(server.port, '/agentctx/index.js');
    assert.equal(busy.status, 503);
    assert.match(busy.body, /still being built/);
    server.setBuilding(false);
    assert.equal((await get(server.port, '/agentctx/index.js')).status, 200);
  } finally {
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
