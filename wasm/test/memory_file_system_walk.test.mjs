// SPDX-License-Identifier: MIT
// createMemoryFileSystem under many directories: walking the whole tree with `list` is linear in
// its size (each directory keeps its own entries). Sized so that the former listing, which
// scanned every node of the file system per call, takes minutes here and the test times out;
// the linear walk takes well under a second. Listing order (the order entries were made), stat,
// write, removeFile and remove are unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createMemoryFileSystem } from 'agentctx';

const DIRS = 40000;

// The walk yields to the event loop every 1000 listings, so node:test's timeout can end it.
const tick = () => new Promise((resolve) => setImmediate(resolve));

test(`walking ${DIRS} directories with list is linear`, { timeout: 30000 }, async () => {
  const files = {};
  for (let i = 0; i < DIRS; i++) files[`/repo/d${i}/f.txt`] = 'x';
  const fs = createMemoryFileSystem(files);
  let dirs = 0;
  let fileCount = 0;
  const stack = ['/'];
  for (let calls = 1; stack.length > 0; calls++) {
    if (calls % 1000 === 0) await tick();
    const path = stack.pop();
    const listed = fs.list(path);
    assert.equal(listed.ok, true, path);
    for (const { name, kind } of listed.entries) {
      if (kind === 'dir') {
        dirs++;
        stack.push(path === '/' ? `/${name}` : `${path}/${name}`);
      } else {
        fileCount++;
      }
    }
  }
  assert.equal(dirs, DIRS + 1); // /repo and its directories
  assert.equal(fileCount, DIRS);
  // Removing every other directory reads only those subtrees.
  for (let i = 0; i < DIRS; i += 2) {
    if (i % 2000 === 0) await tick();
    assert.equal(fs.remove(`/repo/d${i}`), true);
  }
  const left = fs.list('/repo');
  assert.equal(left.entries.length, DIRS / 2);
  assert.equal(left.entries[0].name, 'd1');
});

test('list keeps the order entries were made, through writes, removals and re-creation', () => {
  const enc = new TextEncoder();
  const fs = createMemoryFileSystem({ '/a/z.txt': 'z', '/a/m/n.txt': 'n', '/a/b.txt': 'b' });
  const names = () => fs.list('/a').entries.map((e) => `${e.name}:${e.kind}`);
  assert.deepEqual(names(), ['z.txt:file', 'm:dir', 'b.txt:file']);
  assert.deepEqual(fs.write('/a/z.txt', enc.encode('again'), false), { ok: true }); // an overwrite keeps its place
  assert.deepEqual(names(), ['z.txt:file', 'm:dir', 'b.txt:file']);
  assert.deepEqual(fs.removeFile('/a/z.txt'), { ok: true });
  assert.deepEqual(fs.write('/a/z.txt', enc.encode('new'), false), { ok: true }); // re-made: last
  assert.deepEqual(names(), ['m:dir', 'b.txt:file', 'z.txt:file']);
  assert.equal(fs.remove('/a/m'), true);
  assert.equal(fs.stat('/a/m/n.txt').code, 'not_found');
  assert.deepEqual(names(), ['b.txt:file', 'z.txt:file']);
  assert.deepEqual(fs.write('/a/m/k/l.txt', enc.encode('l'), true), { ok: true });
  assert.deepEqual(names(), ['b.txt:file', 'z.txt:file', 'm:dir']);
  assert.deepEqual(fs.list('/a/m').entries, [{ name: 'k', kind: 'dir' }]);
  assert.deepEqual(fs.list('/').entries, [{ name: 'a', kind: 'dir' }]);
  assert.deepEqual(fs.paths(), ['/a/b.txt', '/a/m/k/l.txt', '/a/z.txt']);
});
