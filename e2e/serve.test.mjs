// SPDX-License-Identifier: MIT
// scripts/serve.mjs: mounts, MIME types, favicon, methods and path traversal (raw request paths
// via node:http, since fetch() would normalise "..").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startServer } from '../scripts/serve.mjs';

function get(port, path, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body: Buffer.concat(chunks).toString() }));
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
