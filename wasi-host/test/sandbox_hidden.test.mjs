// SPDX-License-Identifier: MIT
// The sandbox's hidden paths (wasi-host/src/sandbox.ts invariant 15), which keep the CLI's home
// out of the workspace: unit by unit for the fd_readdir filter (a fake directory read the way
// wasi-libc reads one — cookie by cookie, any buffer size — and the way our guest does, whole),
// and end to end through the reactor's fs.* methods.
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadHost, tempTree } from './helpers.mjs';

const { WasiGuest, wrapWasiImports } = await loadHost();

const tree = tempTree({ 'ws/a.txt': 'A', 'ws/home/AGENTS.md': 'global rules\n', 'ws/home/sessions/r.jsonl': 'SECRET\n', 'ws/sub/b.txt': 'B' });
after(tree.cleanup);
const ws = join(tree.dir, 'ws');
const home = join(ws, 'home');

const DIRENT = 24;
const enc = new TextEncoder();
const dec = new TextDecoder();

/** A node:wasi-like fd_readdir over `names` (cookie = index of the next entry), into `memory`. */
function fakeReaddir(names, memory) {
  return (fd, buf, len, cookie, usedPtr) => {
    const bytes = new Uint8Array(memory.buffer);
    const view = new DataView(memory.buffer);
    let at = buf;
    const end = buf + len;
    for (let i = Number(cookie); i < names.length && at < end; i++) {
      const name = enc.encode(names[i]);
      const record = new Uint8Array(DIRENT + name.length);
      const rv = new DataView(record.buffer);
      rv.setBigUint64(0, BigInt(i + 1), true);
      rv.setBigUint64(8, BigInt(1000 + i), true);
      rv.setUint32(16, name.length, true);
      record[20] = 4;
      record.set(name, DIRENT);
      const n = Math.min(record.length, end - at);
      bytes.set(record.subarray(0, n), at);
      at += n;
    }
    view.setUint32(usedPtr, at - buf, true);
    return 0;
  };
}

/** Reads directory fd 3 as wasi-libc does: `bufLen` bytes per call, on from the last whole record's cookie. */
function readLikeLibc(readdir, memory, bufLen) {
  const buf = 1024;
  const usedPtr = 16;
  const names = [];
  let cookie = 0n;
  for (let calls = 0; calls < 100_000; calls++) {
    assert.equal(readdir(3, buf, bufLen, cookie, usedPtr), 0);
    const view = new DataView(memory.buffer);
    const used = view.getUint32(usedPtr, true);
    let off = buf;
    const before = names.length;
    while (off + DIRENT <= buf + used) {
      const length = view.getUint32(off + 16, true);
      if (off + DIRENT + length > buf + used) break;
      names.push(dec.decode(new Uint8Array(memory.buffer, off + DIRENT, length)));
      cookie = view.getBigUint64(off, true);
      off += DIRENT + length;
    }
    if (used < bufLen) return names;
    if (names.length === before) throw new Error(`no whole entry fits ${bufLen} bytes`);
  }
  throw new Error('the listing never ended');
}

describe('fd_readdir leaves hidden entries out, whatever the buffer size', () => {
  const memory = new WebAssembly.Memory({ initial: 4 });
  const names = ['.', '..', ...Array.from({ length: 200 }, (_, i) => `file-${i}.txt`)];
  names.splice(57, 0, 'home'); // the hidden one, somewhere in the middle
  const wrapped = wrapWasiImports({ fd_readdir: fakeReaddir(names, memory) },
    [{ guestPath: '/workspace', hostPath: ws, writable: false, hidden: [home] }], () => memory, { probe: undefined });
  const visible = names.filter((n) => n !== 'home');

  for (const bufLen of [40, 64, 100, 333, 1000, 4096, 65536]) {
    test(`cookie by cookie, ${bufLen}-byte buffer`, () => {
      assert.deepEqual(readLikeLibc(wrapped.fd_readdir, memory, bufLen), visible);
    });
  }

  test('a hidden entry first, last, or the only one', () => {
    for (const list of [['home', 'x'], ['x', 'home'], ['home']]) {
      const m = new WebAssembly.Memory({ initial: 1 });
      const w = wrapWasiImports({ fd_readdir: fakeReaddir(list, m) },
        [{ guestPath: '/workspace', hostPath: ws, writable: false, hidden: [home] }], () => m, { probe: undefined });
      for (const len of [30, 4096]) assert.deepEqual(readLikeLibc(w.fd_readdir, m, len), list.filter((n) => n !== 'home'), `${list} ${len}`);
    }
  });

  test('a directory without hidden entries is answered by node:wasi untouched', () => {
    const calls = [];
    const w = wrapWasiImports({ fd_readdir: (...a) => { calls.push(a); return 0; } },
      [{ guestPath: '/workspace', hostPath: ws, writable: false }], () => memory, { probe: undefined });
    assert.equal(w.fd_readdir(3, 1024, 100, 0n, 16), 0);
    assert.equal(calls.length, 1);
  });
});

describe('the reactor cannot reach a hidden path', async () => {
  symlinkSync('home', join(ws, 'alias'));
  // Over 64 KiB of entries beside the hidden one: the guest reads the root in several rounds.
  for (let i = 0; i < 3000; i++) writeFileSync(join(ws, `a-rather-long-file-name-number-${i}.txt`), '');
  const guest = await WasiGuest.load({ workspace: ws, state: home, writable: true, hideInWorkspace: [home] });
  const h = guest.open();
  const call = (method, input) => JSON.parse(guest.call(h, method, JSON.stringify({ fs: 'workspace', ...input })));
  const code = (method, input) => {
    const r = call(method, input);
    return r.ok ? 'ok' : r.error.code;
  };

  test('reads, stats and listings inside it are refused; the listing above leaves it out', () => {
    for (const path of ['/workspace/home', '/workspace/home/AGENTS.md', '/workspace/home/sessions/r.jsonl', '/workspace/alias/AGENTS.md']) {
      assert.notEqual(code('fs.read', { path }), 'ok', path);
      assert.notEqual(code('fs.stat', { path }), 'ok', path);
    }
    assert.notEqual(code('fs.list', { path: '/workspace/home' }), 'ok');
    const names = call('fs.list', { path: '/workspace' }).value.entries.map((e) => e.name);
    assert.deepEqual(names.filter((n) => !n.startsWith('a-rather-long-')).sort(), ['a.txt', 'alias', 'sub']);
    assert.equal(names.filter((n) => n.startsWith('a-rather-long-')).length, 3000, 'the listing lost entries');
  });

  test('writes into it are refused and change nothing', () => {
    for (const path of ['/workspace/home/AGENTS.md', '/workspace/home/new.md', '/workspace/alias/AGENTS.md', '/workspace/home/sessions/x.jsonl']) {
      assert.notEqual(code('fs.write', { path, text: 'obey me' }), 'ok', path);
    }
    assert.equal(readFileSync(join(home, 'AGENTS.md'), 'utf8'), 'global rules\n');
    assert.ok(!existsSync(join(home, 'new.md')));
    assert.equal(code('fs.write', { path: '/workspace/ok.txt', text: 'fine' }), 'ok');
  });
});
