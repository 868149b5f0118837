// SPDX-License-Identifier: MIT
// JS FileSystems: createMemoryFileSystem (the error-code vectors), createNodeFileSystem (Node only,
// not a sandbox), and how sessions accept or refuse FileSystem objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { AgentctxError, createEngine, createMemoryFileSystem, createNodeFileSystem } from 'agentctx';

const text = (bytes) => new TextDecoder().decode(bytes);

test('open({workspace: memoryFs}) opens a session holding the FileSystem', async () => {
  const engine = await createEngine();
  const fs = createMemoryFileSystem({ '/repo/AGENTS.md': '# rules\n', '/repo/src/a.ts': new Uint8Array([1, 2]) });
  const session = engine.openSession({ workspace: fs, scratch: createMemoryFileSystem() });
  assert.ok(session.handle > 0);
  assert.equal(engine.stats().open_handles, 1);
  session.close();
  assert.equal(engine.stats().open_handles, 0);
  engine.dispose();
});

test('bad FileSystem objects are AgentctxError invalid_input, never a crash or a leaked handle', async () => {
  const engine = await createEngine();
  const fs = createMemoryFileSystem();
  const bad = [42, 'x', [fs], { workspace: 42 }, { workspace: null }, { workspace: {} },
    { workspace: { ...fs, list: undefined } }, { '': fs }];
  for (const arg of bad) {
    assert.throws(() => engine.openSession(arg), (err) => err instanceof AgentctxError && err.code === 'invalid_input',
      JSON.stringify(arg));
  }
  assert.throws(() => engine.openSession({ workspace: {} }), /missing: stat, read, list, write, sandboxed/);
  assert.equal(engine.stats().open_handles, 0);
  // A FileSystem whose methods throw is accepted: the guard turns exceptions into io failures.
  const throwing = { stat() { throw new Error('boom'); }, read() { throw 1; }, list() { throw 1; },
    write() { throw 1; }, sandboxed() { throw 1; } };
  const session = engine.openSession({ workspace: throwing });
  session.close();
  assert.equal(engine.stats().open_handles, 0);
  engine.dispose();
});

test('Regression Issue17 memory FileSystem stat of a missing path is not quadratic in depth', () => {
  // Depth 20 000: walking every ancestor per stat (as before) took minutes here; the answers
  // must be those of a walk from the root.
  const depth = 20000;
  const dir = '/' + Array.from({ length: depth }, (_, i) => `d${i}`).join('/');
  const fs = createMemoryFileSystem({ [`${dir}/f`]: 'x' });
  for (let i = 0; i < 200; i++) {
    assert.equal(fs.stat(`${dir}/AGENTS.md`).code, 'not_found');
    assert.equal(fs.stat(`${dir}/missing/deeper/AGENTS.md`).code, 'not_found');
  }
  assert.equal(fs.stat(`${dir}/f/x/y`).code, 'not_a_directory');
  assert.equal(fs.stat(`${dir}/f/x`).code, 'not_a_directory');
  assert.equal(fs.stat(`/d0/d1/nope/x`).code, 'not_found');
  assert.equal(fs.write(`${dir}/f/x`, new Uint8Array([1]), true).code, 'not_a_directory');
  assert.equal(fs.write(`${dir}/new/a`, new Uint8Array([1]), false).code, 'not_found');
  assert.equal(fs.write(`${dir}/new/deeper/a`, new Uint8Array([1]), true).ok, true);
  assert.equal(fs.stat(`${dir}/new/deeper`).kind, 'dir');
  assert.equal(fs.stat(`${dir}/new/deeper/a`).size, 1);
});

test('memory FileSystem: stat, read, list and the FileSystem error vectors', () => {
  const fs = createMemoryFileSystem({ '/w/a.txt': 'héllo', '/w/sub/b.bin': new Uint8Array([0, 255]) });
  assert.equal(fs.sandboxed(), true);
  assert.deepEqual(fs.stat('/w/a.txt'), { ok: true, kind: 'file', size: 6, mtime_ms: 0 });
  assert.deepEqual(fs.stat('/w'), { ok: true, kind: 'dir', size: 0, mtime_ms: 0 });
  assert.equal(fs.stat('/nope').code, 'not_found');
  assert.equal(fs.read('/w', 10).code, 'is_a_directory');
  assert.equal(fs.stat('/w/a.txt/x').code, 'not_a_directory');
  assert.equal(fs.list('/w/a.txt').code, 'not_a_directory');
  for (const p of ['w/a.txt', '/w/', '/w//a.txt', '/w/./a.txt', '/w/../w', '', '/a\u0000b']) {
    assert.equal(fs.stat(p).code, 'invalid_path', p);
  }
  assert.equal(text(fs.read('/w/a.txt', 100).data), 'héllo');
  assert.deepEqual([...fs.read('/w/a.txt', 2).data], [0x68, 0xc3]); // bytes, not characters
  assert.equal(fs.read('/w/a.txt', 0).data.length, 0);
  const listed = fs.list('/w');
  assert.equal(listed.ok, true);
  assert.deepEqual(listed.entries.sort((a, b) => (a.name < b.name ? -1 : 1)),
    [{ name: 'a.txt', kind: 'file' }, { name: 'sub', kind: 'dir' }]);
  assert.deepEqual(fs.list('/').entries, [{ name: 'w', kind: 'dir' }]);
  assert.deepEqual(fs.paths(), ['/w/a.txt', '/w/sub/b.bin']);
});

test('memory FileSystem: writes (mtime = max(clock, previous + 1)), parents, copies', () => {
  let now = 5;
  const fs = createMemoryFileSystem({}, { clock: () => now });
  const bytes = new TextEncoder().encode('one');
  assert.deepEqual(fs.write('/a.txt', bytes, false), { ok: true });
  bytes[0] = 0x4f; // the FileSystem kept its own copy
  assert.equal(text(fs.read('/a.txt', 10).data), 'one');
  assert.equal(fs.stat('/a.txt').mtime_ms, 5);
  fs.write('/a.txt', new TextEncoder().encode('two'), false);
  assert.equal(fs.stat('/a.txt').mtime_ms, 6);
  now = 100;
  fs.write('/a.txt', new Uint8Array(), false);
  assert.deepEqual(fs.stat('/a.txt'), { ok: true, kind: 'file', size: 0, mtime_ms: 100 });
  assert.equal(fs.write('/d/e/f.txt', bytes, false).code, 'not_found');
  assert.deepEqual(fs.write('/d/e/f.txt', bytes, true), { ok: true });
  assert.equal(fs.stat('/d/e').kind, 'dir');
  assert.equal(fs.write('/d', bytes, true).code, 'is_a_directory');
  assert.equal(fs.write('/a.txt/x', bytes, true).code, 'not_a_directory');
  assert.equal(fs.write('/x/../y', bytes, true).code, 'invalid_path');
});

test('memory FileSystem: removeFile removes files only', () => {
  const fs = createMemoryFileSystem({ '/repo/a.txt': 'a', '/repo/sub/b.txt': 'b' });
  assert.deepEqual(fs.removeFile('/repo/a.txt'), { ok: true });
  assert.equal(fs.stat('/repo/a.txt').code, 'not_found');
  assert.equal(fs.removeFile('/repo/a.txt').code, 'not_found');
  assert.equal(fs.removeFile('/repo/sub').code, 'is_a_directory');
  assert.equal(fs.removeFile('/repo/../x').code, 'invalid_path');
  assert.deepEqual(fs.paths(), ['/repo/sub/b.txt']);
});

test('a path is normalised exactly when its components are (every short path over / . a \\0)', () => {
  // The definition, by components; the FileSystems check it with substring searches.
  const normalised = (p) => p.startsWith('/') && !p.includes('\0') &&
    (p === '/' || p.slice(1).split('/').every((c) => c !== '' && c !== '.' && c !== '..'));
  const fs = createMemoryFileSystem({ '/a': 'x' });
  const node = createNodeFileSystem(tmpdir());
  const alphabet = ['/', '.', 'a', '\0'];
  let paths = [''];
  let checked = 0;
  for (let length = 1; length <= 6; length++) {
    paths = paths.flatMap((p) => alphabet.map((c) => p + c));
    for (const p of paths) {
      const refused = fs.stat(p).code === 'invalid_path';
      assert.equal(refused, !normalised(p), JSON.stringify(p));
      assert.equal(node.stat(p).code === 'invalid_path', !normalised(p), `node ${JSON.stringify(p)}`);
      checked++;
    }
  }
  assert.ok(checked > 5000);
});

test('createMemoryFileSystem refuses bad keys with invalid_path', () => {
  for (const files of [{ 'a.txt': 'x' }, { '/': 'x' }, { '/a/': 'x' }, { '/a': 'x', '/a/b': 'y' }]) {
    assert.throws(() => createMemoryFileSystem(files), { code: 'invalid_path' }, JSON.stringify(files));
  }
});

test('Node directory FileSystem: a convenience over node:fs (not a sandbox)', () => {
  const root = mkdtempSync(join(tmpdir(), 'agentctx-nodefs-'));
  try {
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/a.txt'), 'hello');
    symlinkSync('src/a.txt', join(root, 'link'));
    const fs = createNodeFileSystem(root);
    assert.equal(fs.sandboxed(), false);
    const st = fs.stat('/src/a.txt');
    assert.equal(st.ok && st.kind, 'file');
    assert.equal(st.size, 5);
    assert.equal(Number.isInteger(st.mtime_ms), true);
    assert.equal(fs.stat('/link').kind, 'file'); // stat follows symlinks
    assert.equal(text(fs.read('/src/a.txt', 3).data), 'hel');
    assert.equal(fs.read('/src', 3).code, 'is_a_directory');
    assert.equal(fs.stat('/missing').code, 'not_found');
    assert.equal(fs.stat('/src/a.txt/x').code, 'not_a_directory');
    assert.equal(fs.stat('/src/../..').code, 'invalid_path');
    assert.equal(fs.stat('relative').code, 'invalid_path');
    const names = fs.list('/').entries.map((e) => `${e.name}:${e.kind}`).sort();
    assert.deepEqual(names, ['link:symlink', 'src:dir']);
    assert.deepEqual(fs.write('/new/dir/b.txt', new TextEncoder().encode('b'), true), { ok: true });
    assert.equal(readFileSync(join(root, 'new/dir/b.txt'), 'utf8'), 'b');
    assert.equal(fs.write('/none/c.txt', new Uint8Array(), false).code, 'not_found');
    assert.equal(fs.write('/', new Uint8Array(), false).code, 'is_a_directory');
    // removeFile: a symlink itself, never a directory.
    assert.deepEqual(fs.removeFile('/link'), { ok: true });
    assert.equal(readFileSync(join(root, 'src/a.txt'), 'utf8'), 'hello');
    assert.equal(fs.removeFile('/src').code, 'is_a_directory');
    assert.deepEqual(fs.removeFile('/src/a.txt'), { ok: true });
    assert.equal(fs.stat('/src/a.txt').code, 'not_found');
    assert.equal(fs.removeFile('/src/a.txt').code, 'not_found');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('Regression Issue17 a huge global AGENTS.md is read up to 1 MiB through the package', async () => {
  // 20 MB here; 50 MB took 31 s and 2.4 GB before the read was capped.
  const engine = await createEngine();
  const fs = createMemoryFileSystem({ '/home/AGENTS.md': '- rule\n'.repeat(3_000_000), '/repo/a.txt': 'A' });
  const session = engine.openSession({ workspace: fs });
  const config = { session_id: 's-big-global', model: { slug: 'mock-1' }, agents_md: { home_dir: '/home' },
    environments: [{ id: 'local', cwd: '/repo', fs: 'workspace' }] };
  const start = session.call('session.start', { config, now_ms: 0 });
  const warnings = start.effects.filter((e) => e.type === 'event' && e.event.type === 'warning').map((e) => e.event);
  assert.ok(warnings.some((w) => w.code === 'agents_md_truncated' && w.message.includes('over the limit of 1048576 bytes')), JSON.stringify(warnings));
  const { effects } = session.call('submit', { text: 'hi', now_ms: 1 });
  const body = effects.find((e) => e.type === 'model_request').bodyText;
  assert.ok(body.includes('[global AGENTS.md instructions truncated: 19951424 bytes omitted to fit the 1048576-byte limit]'));
  assert.ok(body.length < 2 * 1024 * 1024, `body is ${body.length} bytes`);
  session.close();
  engine.dispose();
});

test('JS FileSystem answers reach the core intact: names in any script, every malformed shape refused', async () => {
  const engine = await createEngine();
  const base = createMemoryFileSystem({ '/repo/a.txt': 'abc' });
  const open = (overrides) => engine.openSession({ workspace: { ...base, ...overrides } });
  const names = ['é', '😀', '中文', 'a b', 'x'.repeat(300), 'tab\there'];
  const listing = open({ list: () => ({ ok: true, entries: names.map((name, i) => ({ name, kind: ['file', 'dir', 'symlink', 'other'][i % 4] })) }) });
  const listed = listing.call('fs.list', { fs: 'workspace', path: '/repo' }).entries;
  assert.deepEqual(listed.map((e) => e.name).sort(), [...names].sort());
  assert.equal(listed.find((e) => e.name === '😀').kind, 'dir');
  listing.close();
  // An empty listing and an empty file.
  const empty = open({ list: () => ({ ok: true, entries: [] }), read: () => ({ ok: true, data: new Uint8Array(0) }) });
  assert.deepEqual(empty.call('fs.list', { fs: 'workspace', path: '/repo' }).entries, []);
  assert.deepEqual(empty.call('fs.read', { fs: 'workspace', path: '/repo/a.txt' }), { text: '', bytes: 0 });
  empty.close();
  const malformedEntries = [[{ name: '', kind: 'file' }], [{ name: '.', kind: 'dir' }], [{ name: '..', kind: 'dir' }],
    [{ name: 'a/b', kind: 'file' }], [{ name: 7, kind: 'file' }], [{ name: 'a', kind: 'folder' }], [null], ['a'],
    [{ name: 'ok', kind: 'file' }, { kind: 'file' }]];
  for (const entries of malformedEntries) {
    const s = open({ list: () => ({ ok: true, entries }) });
    assert.throws(() => s.call('fs.list', { fs: 'workspace', path: '/repo' }), (e) => e.code === 'io' &&
      /malformed answer from JS FileSystem.list/.test(String(e.details?.message)), JSON.stringify(entries));
    s.close();
  }
  for (const data of ['abc', [1, 2], new Uint16Array(2), null]) {
    const s = open({ read: () => ({ ok: true, data }) });
    assert.throws(() => s.call('fs.read', { fs: 'workspace', path: '/repo/a.txt' }), (e) => e.code === 'io' &&
      /malformed answer from JS FileSystem.read/.test(String(e.details?.message)), String(data));
    s.close();
  }
  // Failures keep their code and message, on the read and the list path alike.
  const failing = open({ read: () => ({ ok: false, code: 'not_found', message: 'gone' }),
    list: () => ({ ok: false, code: 'permission_denied', message: 'no' }) });
  assert.throws(() => failing.call('fs.read', { fs: 'workspace', path: '/repo/a.txt' }), (e) => e.code === 'not_found' && e.details?.message === 'gone');
  assert.throws(() => failing.call('fs.list', { fs: 'workspace', path: '/repo' }), (e) => e.code === 'permission_denied' && e.details?.message === 'no');
  failing.close();
  // A read answers at most max_bytes, whatever the FileSystem gave.
  const long = open({ read: () => ({ ok: true, data: new TextEncoder().encode('abcdef') }) });
  assert.deepEqual(long.call('fs.read', { fs: 'workspace', path: '/repo/a.txt', max_bytes: 4 }), { text: 'abcd', bytes: 4 });
  long.close();
  engine.dispose();
});

test('a FileSystem that tries a call of another engine from its callback still gets its own answer', async () => {
  const outer = await createEngine();
  const inner = await createEngine(); // the same module (one per realm)
  const innerSession = inner.openSession({ workspace: createMemoryFileSystem({ '/repo/x.txt': 'inner' }) });
  const base = createMemoryFileSystem({ '/repo/a.txt': 'outer' });
  const refusals = [];
  const tryInner = (method, input) => {
    try {
      innerSession.call(method, { fs: 'workspace', ...input });
    } catch (e) {
      refusals.push(e.code); // calls from a FileSystem callback are refused, module-wide
    }
  };
  const nested = {
    ...base,
    read(path, maxBytes) {
      tryInner('fs.read', { path: '/repo/x.txt' });
      return base.read(path, maxBytes);
    },
    list(path) {
      tryInner('fs.list', { path: '/repo' });
      return base.list(path);
    },
  };
  const session = outer.openSession({ workspace: nested });
  assert.deepEqual(session.call('fs.read', { fs: 'workspace', path: '/repo/a.txt' }), { text: 'outer', bytes: 5 });
  assert.deepEqual(session.call('fs.list', { fs: 'workspace', path: '/repo' }).entries.map((e) => e.name), ['a.txt']);
  assert.deepEqual(refusals, ['invalid_state', 'invalid_state']);
  // Afterwards the inner engine answers as usual.
  assert.equal(innerSession.call('fs.read', { fs: 'workspace', path: '/repo/x.txt' }).text, 'inner');
  session.close();
  innerSession.close();
  outer.dispose();
  inner.dispose();
});
