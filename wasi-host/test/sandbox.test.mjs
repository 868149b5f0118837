// SPDX-License-Identifier: MIT
// The sandbox, end to end through the real reactor (session handle, fs.* methods over the
// guest's PosixFileSystem) and unit by unit for the import wrapper (wasi-host/src/sandbox.ts).
//
// Why fs.* methods and not the gtest command module: the read-only and symlink rules live in
// the *host's* import wrapper, which only the reactor loaded by WasiGuest goes through;
// the gtest module (scripts/wasi-run.mjs) shows the guest side (tests/abi, under WASI).
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { loadHost, tempTree } from './helpers.mjs';

const host = await loadHost();
const { WasiGuest, wrapWasiImports, resolveHostPath, resolveHostParent, exactLstat, WASI_EROFS, WASI_ENOTCAPABLE, WASI_ELOOP } = host;

// base/ws is the workspace, base/outside and base/state are beside it.
const tree = tempTree({
  'ws/a.txt': 'AAA',
  'ws/sub/b.txt': 'BBB',
  'ws/alias.txt': { symlink: 'a.txt' },
  'ws/subalias': { symlink: 'sub' },
  'ws/deep/up': { symlink: '../sub' },
  'outside/secret.txt': 'SECRET',
  'state/': '',
});
after(tree.cleanup);
const ws = join(tree.dir, 'ws');
const outside = join(tree.dir, 'outside');
const state = join(tree.dir, 'state');
// Links out of the workspace, in every shape.
for (const [name, target] of [
  ['out-file', join(outside, 'secret.txt')],
  ['out-dir', outside],
  ['out-rel', '../outside'],
  ['out-root', '/'],
  ['out-state', '../state'],
  ['chain1', 'chain2'],
  ['loop', 'loop'],
]) {
  symlinkSync(target, join(ws, name));
}
symlinkSync('out-dir', join(ws, 'chain2'));

async function session(writable) {
  const guest = await WasiGuest.load({ workspace: ws, state, writable });
  const h = guest.open();
  const call = (method, input) => JSON.parse(guest.call(h, method, JSON.stringify({ fs: 'workspace', ...input })));
  const code = (method, input) => {
    const r = call(method, input);
    return r.ok ? 'ok' : r.error.code;
  };
  return { call, code };
}

describe('reads stay inside /workspace', async () => {
  const { call, code } = await session(false);

  test('files, directories and inward symlinks are readable', () => {
    assert.equal(call('fs.read', { path: '/workspace/a.txt' }).value.text, 'AAA');
    assert.equal(call('fs.read', { path: '/workspace/alias.txt' }).value.text, 'AAA');
    assert.equal(call('fs.read', { path: '/workspace/subalias/b.txt' }).value.text, 'BBB');
    assert.equal(call('fs.read', { path: '/workspace/deep/up/b.txt' }).value.text, 'BBB');
    assert.equal(call('fs.stat', { path: '/workspace/sub' }).value.kind, 'dir');
    const names = call('fs.list', { path: '/workspace' }).value.entries.map((e) => `${e.name}:${e.kind}`);
    assert.ok(names.includes('a.txt:file') && names.includes('out-dir:symlink') && names.includes('sub:dir'));
  });

  test('absolute paths outside the preopen are not_capable', () => {
    for (const path of ['/etc/passwd', '/', '/state', '/fixtures/x', '/workspacex/a.txt']) {
      assert.equal(code('fs.read', { path }), 'not_capable', path);
      assert.equal(code('fs.stat', { path }), 'not_capable', path);
    }
    assert.equal(code('fs.list', { path: '/' }), 'not_capable');
  });

  test('dot-dot and unnormalised paths are invalid_path', () => {
    for (const path of ['/workspace/../outside/secret.txt', '/workspace/sub/../../x', 'a.txt',
      '/workspace//a.txt', '/workspace/./a.txt', '/workspace/', '']) {
      assert.equal(code('fs.read', { path }), 'invalid_path', JSON.stringify(path));
    }
  });

  test('symlinks out of the workspace are not_capable, file or directory', () => {
    for (const path of ['/workspace/out-file', '/workspace/out-dir/secret.txt', '/workspace/out-rel/secret.txt',
      '/workspace/out-root/etc/passwd', '/workspace/out-state', '/workspace/chain1/secret.txt']) {
      assert.equal(code('fs.read', { path }), 'not_capable', path);
      assert.equal(code('fs.stat', { path }), 'not_capable', path);
    }
    for (const path of ['/workspace/out-dir', '/workspace/out-rel', '/workspace/out-root', '/workspace/chain1']) {
      assert.equal(code('fs.list', { path }), 'not_capable', path);
    }
    assert.equal(code('fs.read', { path: '/workspace/loop' }), 'not_capable');
  });
});

describe('read-only workspace (the default)', async () => {
  const { code } = await session(false);

  test('writes are permission_denied and change nothing', () => {
    assert.equal(code('fs.write', { path: '/workspace/new.txt', text: 'N' }), 'permission_denied');
    assert.equal(code('fs.write', { path: '/workspace/a.txt', text: 'changed' }), 'permission_denied');
    assert.equal(code('fs.write', { path: '/workspace/n1/n2/x.txt', text: 'x', create_parents: true }), 'permission_denied');
    assert.equal(code('fs.write', { path: '/workspace/alias.txt', text: 'changed' }), 'permission_denied');
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'AAA');
    assert.equal(existsSync(join(ws, 'new.txt')), false);
    assert.equal(existsSync(join(ws, 'n1')), false);
  });

  test('writes through links out are refused before the write rule', () => {
    assert.equal(code('fs.write', { path: '/workspace/out-state/evil.txt', text: 'E' }), 'not_capable');
    assert.deepEqual(readdirSync(state), []);
  });
});

describe('--writable workspace', async () => {
  const { call, code } = await session(true);

  test('creates, overwrites and makes parents', () => {
    assert.equal(code('fs.write', { path: '/workspace/w/new.txt', text: 'N' }), 'not_found');
    assert.equal(call('fs.write', { path: '/workspace/w/x/new.txt', text: 'Né', create_parents: true }).value.bytes, 3);
    assert.equal(readFileSync(join(ws, 'w/x/new.txt'), 'utf8'), 'Né');
    assert.equal(code('fs.write', { path: '/workspace/w/x/new.txt', text: 'again' }), 'ok');
    assert.equal(readFileSync(join(ws, 'w/x/new.txt'), 'utf8'), 'again');
    assert.equal(code('fs.write', { path: '/workspace/sub', text: 'x' }), 'is_a_directory');
    assert.equal(code('fs.write', { path: '/workspace/a.txt/x', text: 'x', create_parents: true }), 'not_a_directory');
  });

  test('writes never leave the workspace', () => {
    for (const path of ['/workspace/out-dir/evil.txt', '/workspace/out-state/evil.txt', '/workspace/out-file',
      '/workspace/out-rel/new/evil.txt', '/workspace/chain1/evil.txt']) {
      assert.equal(code('fs.write', { path, text: 'E', create_parents: true }), 'not_capable', path);
    }
    assert.equal(code('fs.write', { path: '/state/evil.txt', text: 'E' }), 'not_capable');
    assert.deepEqual(readdirSync(outside), ['secret.txt']);
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'SECRET');
    assert.deepEqual(readdirSync(state), []);
  });
});

// ---- the wrapper alone, against a fake node:wasi ------------------------------------------
describe('wrapWasiImports', () => {
  const CREAT = 1, DIRECTORY = 2, TRUNC = 8, FOLLOW = 1;
  const READ = 1n << 1n, WRITE = 1n << 6n;
  function fixture({ wsWritable = false, stateWritable = true } = {}) {
    const memory = { buffer: new ArrayBuffer(4096) };
    const calls = [];
    let nextFd = 10;
    const ok = (name) => (...args) => { calls.push([name, ...args]); return 0; };
    const fake = {
      path_open: (fd, df, p, l, of, rb, ri, ff, outFd) => {
        calls.push(['path_open', fd]);
        new DataView(memory.buffer).setUint32(outFd, nextFd++, true);
        return 0;
      },
      fd_prestat_dir_name: (fd, p, l) => {
        const name = fd === 3 ? '/state' : '/elsewhere';
        new Uint8Array(memory.buffer, p, l).set(Buffer.from(name).subarray(0, l));
        return 0;
      },
      fd_close: ok('fd_close'), fd_renumber: ok('fd_renumber'), fd_read: ok('fd_read'),
      path_create_directory: ok('path_create_directory'), path_filestat_get: ok('path_filestat_get'),
      path_rename: ok('path_rename'), path_unlink_file: ok('path_unlink_file'),
      path_symlink: ok('path_symlink'), path_link: ok('path_link'),
      fd_filestat_set_size: ok('fd_filestat_set_size'), fd_allocate: ok('fd_allocate'),
    };
    const p1 = wrapWasiImports(fake, [
      { guestPath: '/workspace', hostPath: ws, writable: wsWritable },
      { guestPath: '/state', hostPath: state, writable: stateWritable },
    ], () => memory, { probe: undefined }); // the fake's fds are not the kernel's: checks before the open only
    let at = 100;
    const s = (text) => { // writes a guest string, returns [ptr, len]
      const bytes = typeof text === 'string' ? Buffer.from(text) : text;
      new Uint8Array(memory.buffer, at, bytes.length).set(bytes);
      const r = [at, bytes.length];
      at += bytes.length + 8;
      return r;
    };
    const open = (fd, path, oflags = 0, rights = READ) => p1.path_open(fd, FOLLOW, ...s(path), oflags, rights, 0n, 0, 0);
    const lastFd = () => new DataView(memory.buffer).getUint32(0, true);
    return { p1, calls, s, open, lastFd };
  }

  test('read-only /workspace, writable /state: each fd keeps its root', () => {
    const { p1, calls, open } = fixture();
    assert.equal(open(3, 'a.txt'), 0);
    assert.equal(open(3, 'new.txt', CREAT, READ | WRITE), WASI_EROFS);
    assert.equal(open(3, 'a.txt', TRUNC), WASI_EROFS);
    assert.equal(open(3, 'a.txt', 0, WRITE), WASI_EROFS);
    assert.equal(open(4, 'rollout.jsonl', CREAT, WRITE), 0); // -> fd 11
    assert.equal(open(3, 'sub', DIRECTORY), 0); // -> fd 12, inherits /workspace
    assert.equal(open(12, 'x', CREAT, WRITE), WASI_EROFS);
    assert.equal(open(4, '.', DIRECTORY), 0); // -> fd 13, inherits /state
    assert.equal(open(13, 'y', CREAT, WRITE), 0);
    assert.equal(calls.filter((c) => c[0] === 'path_open').length, 5);
    assert.equal(p1.fd_filestat_set_size(11, 0n), 0);
    assert.equal(p1.fd_filestat_set_size(12, 0n), WASI_EROFS);
    assert.equal(p1.fd_allocate(1, 0n, 1n), WASI_EROFS); // stdio has no root
  });

  test('fd_close and fd_renumber move roots', () => {
    const { p1, open } = fixture();
    assert.equal(open(4, '.', DIRECTORY), 0); // fd 10, /state
    assert.equal(p1.fd_renumber(10, 20), 0);
    assert.equal(open(10, 'z', CREAT, WRITE), WASI_ENOTCAPABLE); // fd 10 is gone
    assert.equal(open(20, 'z', CREAT, WRITE), 0);
    assert.equal(p1.fd_renumber(3, 20), 0); // fd 20 is now the read-only workspace
    assert.equal(open(20, 'z', CREAT, WRITE), WASI_EROFS);
    assert.equal(p1.fd_close(20), 0);
    assert.equal(open(20, 'a.txt'), WASI_ENOTCAPABLE);
  });

  test('preopen names reported to the guest are trusted over the assumed order', () => {
    const { p1, s, open } = fixture();
    const [ptr] = s('xxxxxx');
    assert.equal(p1.fd_prestat_dir_name(3, ptr, 6), 0); // the fake says fd 3 is /state
    assert.equal(open(3, 'new', CREAT, WRITE), 0);
    assert.equal(p1.fd_prestat_dir_name(4, ptr, 6), 0); // '/elsew': not ours -> no root
    assert.equal(open(4, 'a.txt'), WASI_ENOTCAPABLE);
  });

  test('mutating imports need a writable root on every fd they write through', () => {
    const { p1, s } = fixture({ wsWritable: false });
    assert.equal(p1.path_create_directory(3, ...s('d')), WASI_EROFS);
    assert.equal(p1.path_create_directory(4, ...s('d')), 0);
    assert.equal(p1.path_unlink_file(3, ...s('a.txt')), WASI_EROFS);
    assert.equal(p1.path_rename(4, ...s('x'), 3, ...s('y')), WASI_EROFS);
    assert.equal(p1.path_rename(4, ...s('x'), 4, ...s('y')), 0);
    assert.equal(p1.path_filestat_get(3, 0, ...s('a.txt'), 0), 0); // reads are fine
  });

  test('links are never created', () => {
    const { p1, s } = fixture({ wsWritable: true });
    assert.equal(p1.path_symlink(...s('/etc'), 3, ...s('etc')), WASI_ENOTCAPABLE);
    assert.equal(p1.path_link(3, 0, ...s('a.txt'), 4, ...s('a.txt')), WASI_ENOTCAPABLE);
  });

  test('bad guest paths are refused before uvwasi sees them', () => {
    const { p1, calls, s, open } = fixture({ wsWritable: true });
    for (const path of ['../ws/a.txt', 'sub/../a.txt', '/etc/passwd', 'a\0b', Buffer.from([0x61, 0xff])]) {
      assert.equal(open(3, path), WASI_ENOTCAPABLE, String(path));
    }
    assert.equal(p1.path_filestat_get(3, FOLLOW, ...s('out-dir/secret.txt'), 0), WASI_ENOTCAPABLE);
    // Not following the last link: the link itself is inside.
    assert.equal(p1.path_filestat_get(3, 0, ...s('out-dir'), 0), 0);
    assert.equal(p1.path_filestat_get(3, FOLLOW, ...s('out-dir'), 0), WASI_ENOTCAPABLE);
    assert.equal(p1.path_unlink_file(3, ...s('out-dir')), 0); // removes the link, not the target
    assert.equal(calls.filter((c) => c[0] === 'path_open').length, 0);
  });

  test('resolveHostPath follows links like the OS', () => {
    assert.equal(resolveHostPath(ws, 'subalias/b.txt', true), join(ws, 'sub/b.txt'));
    assert.equal(resolveHostPath(ws, 'deep/up/b.txt', true), join(ws, 'sub/b.txt'));
    assert.equal(resolveHostPath(ws, 'out-rel/secret.txt', true), join(outside, 'secret.txt'));
    assert.equal(resolveHostPath(ws, 'chain1', true), outside);
    assert.equal(resolveHostPath(ws, 'chain1', false), join(ws, 'chain1'));
    assert.equal(resolveHostPath(ws, 'missing/x/y', true), join(ws, 'missing/x/y'));
    assert.equal(resolveHostPath(ws, 'loop', true), undefined);
  });

  test('resolveHostParent resolves all but the last component', () => {
    const memo = new Map();
    for (let round = 0; round < 2; round++) { // the second round answers from the memo
      assert.equal(resolveHostParent(ws, 'subalias/b.txt', memo), join(ws, 'sub/b.txt'));
      assert.equal(resolveHostParent(ws, 'deep/up/b.txt', memo), join(ws, 'sub/b.txt'));
      assert.equal(resolveHostParent(ws, 'alias.txt', memo), join(ws, 'alias.txt')); // not followed
      assert.equal(resolveHostParent(ws, 'out-dir/secret.txt', memo), join(outside, 'secret.txt'));
      assert.equal(resolveHostParent(ws, 'loop/x', memo), undefined);
      assert.equal(resolveHostParent(ws, 'sub/missing', memo), join(ws, 'sub/missing'));
      // `..` after a link goes up from the link's target (ws/sub), not from ws/deep.
      assert.equal(resolveHostParent(ws, 'deep/up/../a.txt', memo), join(ws, 'a.txt'));
      // Paths the guest never sends (empty and `.` components) still join as path.join does.
      assert.equal(resolveHostParent(ws, 'sub//b.txt', memo), join(ws, 'sub/b.txt'));
      assert.equal(resolveHostParent(ws, './sub/./b.txt', memo), join(ws, 'sub/b.txt'));
      assert.equal(resolveHostParent(ws, 'sub/./b.txt', memo), join(ws, 'sub/b.txt'));
      assert.equal(resolveHostParent('/', 'tmp', memo), '/tmp');
    }
    assert.ok(memo.has(join(ws, 'deep')));
  });

  test('exactLstat gives the exact device and inode, and undefined for a missing path', () => {
    for (const path of [join(ws, 'a.txt'), join(ws, 'sub'), join(ws, 'alias.txt')]) {
      const big = lstatSync(path, { bigint: true });
      const st = exactLstat(path);
      assert.deepEqual(st, { dev: big.dev, ino: big.ino, isDirectory: big.isDirectory(), isSymbolicLink: big.isSymbolicLink() }, path);
    }
    assert.equal(exactLstat(join(ws, 'missing')), undefined);
  });

  // A fake kernel behind a fake uvwasi: descriptors are the lowest free numbers, as the OS gives
  // them, so the wrapper's descriptor finding (invariants 3, 11, 12) runs as with the real probe.
  function kernelFixture() {
    const memory = { buffer: new ArrayBuffer(4096) };
    const links = new Map([['alias.txt', 'a.txt'], ['out-file', '../outside/secret.txt']]); // as on disk
    const os = new Map(); // host descriptor -> relative path
    const guestFds = new Map(); // guest fd -> host descriptor
    let nextGuest = 10;
    const lowestFree = () => {
      let fd = 20;
      while (os.has(fd)) fd++;
      return fd;
    };
    const identity = (rel) => BigInt(1 + ['a.txt', 'sub/b.txt', 'other'].indexOf(rel));
    const calls = [];
    let probes = 0;
    let statSize = 100;
    const fake = {
      path_open: (fd, lookup, p, l, oflags, rb, ri, ff, outFd) => {
        let rel = Buffer.from(new Uint8Array(memory.buffer, p, l)).toString();
        calls.push(['path_open', rel, lookup]);
        if (links.has(rel)) {
          if ((lookup & FOLLOW) === 0) return WASI_ELOOP;
          rel = links.get(rel);
        }
        const osFd = lowestFree();
        os.set(osFd, rel);
        guestFds.set(nextGuest, osFd);
        new DataView(memory.buffer).setUint32(outFd, nextGuest++, true);
        return 0;
      },
      fd_filestat_get: (fd, at) => {
        calls.push(['fd_filestat_get', fd]);
        const view = new DataView(memory.buffer, at, 64);
        view.setBigUint64(32, BigInt(statSize++), true); // a size that changes with every fstat
        view.setBigUint64(0, 7n, true);
        view.setBigUint64(8, identity(os.get(guestFds.get(fd))), true);
        return 0;
      },
      fd_close: (fd) => {
        calls.push(['fd_close', fd]);
        os.delete(guestFds.get(fd));
        guestFds.delete(fd);
        return 0;
      },
      fd_read: () => 0,
    };
    const probe = {
      nextFreeFd: () => { probes++; return lowestFree(); },
      describe: (osFd) => os.has(osFd)
        ? { path: join(ws, os.get(osFd)), dev: 7n, ino: identity(os.get(osFd)), isFile: true, isDirectory: false, links: 1n }
        : undefined,
    };
    const p1 = wrapWasiImports(fake, [{ guestPath: '/workspace', hostPath: ws, writable: false }], () => memory, { probe });
    const open = (path) => {
      new Uint8Array(memory.buffer, 100, path.length).set(Buffer.from(path));
      const rc = p1.path_open(3, FOLLOW, 100, path.length, 0, READ, 0n, 0, 0);
      return { rc, fd: new DataView(memory.buffer).getUint32(0, true) };
    };
    // Another part of the host process opening a file (it gets the lowest free number).
    const hostOpens = (rel) => { const fd = lowestFree(); os.set(fd, rel); return fd; };
    // The guest's fstat of `fd` into guest memory at 512: the filestat's 64 bytes.
    const fstat = (fd) => {
      const rc = p1.fd_filestat_get(fd, 512);
      return { rc, bytes: Buffer.from(new Uint8Array(memory.buffer, 512, 64)) };
    };
    return { p1, calls, open, fstat, hostOpens, probes: () => probes, os };
  }

  test("the guest's fstat right after an open is the open check's filestat", () => {
    const k = kernelFixture();
    const fstats = () => k.calls.filter((c) => c[0] === 'fd_filestat_get').length;
    const a = k.open('a.txt');
    assert.equal(a.rc, 0);
    assert.equal(fstats(), 1, 'the open checked the descriptor once');
    const first = k.fstat(a.fd);
    assert.equal(first.rc, 0);
    assert.equal(fstats(), 1, 'answered from the check');
    assert.equal(first.bytes.readBigUInt64LE(8), 1n, "a.txt's inode");
    assert.equal(first.bytes.readBigUInt64LE(32), 100n, "the check's answer (size 100)");
    // Once only: a second fstat asks uvwasi again.
    assert.equal(k.fstat(a.fd).bytes.readBigUInt64LE(32), 101n);
    assert.equal(fstats(), 2);
    // Any other import in between ends it.
    const b = k.open('sub/b.txt');
    assert.equal(fstats(), 3);
    assert.equal(k.p1.fd_read(b.fd, 0, 0, 0), 0);
    assert.equal(k.fstat(b.fd).bytes.readBigUInt64LE(8), 2n);
    assert.equal(fstats(), 4, 'after fd_read, uvwasi answers');
    // Another descriptor's fstat is not answered from it.
    assert.equal(k.p1.fd_close(b.fd), 0);
    const c = k.open('sub/b.txt');
    assert.equal(fstats(), 5);
    assert.equal(k.fstat(a.fd).bytes.readBigUInt64LE(8), 1n);
    assert.equal(fstats(), 6, 'a.txt asked of uvwasi');
    assert.equal(k.fstat(c.fd).bytes.readBigUInt64LE(8), 2n);
    assert.equal(fstats(), 7, 'the remembered one went with the fstat before it');
  });

  test('after a close, a read open takes the freed descriptor without the probe', () => {
    const k = kernelFixture();
    const first = k.open('a.txt');
    assert.equal(first.rc, 0);
    assert.equal(k.probes(), 1);
    assert.equal(k.p1.fd_close(first.fd), 0);
    for (const path of ['sub/b.txt', 'a.txt', 'sub/b.txt']) {
      const r = k.open(path);
      assert.equal(r.rc, 0, path);
      assert.equal(k.p1.fd_close(r.fd), 0);
    }
    assert.equal(k.probes(), 1, 'each open after a close reused the freed descriptor');
  });

  test('a missed descriptor guess is undone and the open made again with the probe', () => {
    const k = kernelFixture();
    const first = k.open('a.txt');
    assert.equal(k.p1.fd_close(first.fd), 0);
    const theirs = k.hostOpens('other'); // takes the number the close freed
    const r = k.open('sub/b.txt');
    assert.equal(r.rc, 0);
    assert.equal(k.probes(), 2);
    assert.equal(k.calls.filter((c) => c[0] === 'fd_close').length, 2, 'the first close and the undone open');
    assert.equal(k.os.get(theirs), 'other', "the host's own descriptor is left alone");
    assert.equal([...k.os.values()].filter((rel) => rel === 'sub/b.txt').length, 1, 'one descriptor of the file stays');
  });

  test('a read open does not follow its last component first; a link is resolved, then followed', () => {
    const k = kernelFixture();
    assert.equal(k.open('sub/b.txt').rc, 0);
    assert.deepEqual(k.calls.filter((c) => c[0] === 'path_open').map((c) => c[2]), [0], 'no lookup follows');
    k.calls.length = 0;
    assert.equal(k.open('alias.txt').rc, 0); // a link to a.txt, inside
    assert.deepEqual(k.calls.filter((c) => c[0] === 'path_open').map((c) => c[2]), [0, FOLLOW]);
    k.calls.length = 0;
    assert.equal(k.open('out-file').rc, WASI_ENOTCAPABLE); // a real link out: refused before any open follows it
    assert.deepEqual(k.calls.filter((c) => c[0] === 'path_open').map((c) => c[2]), [0]);
  });

  test('Regression Issue17 resolveHostPath with the memo answers as without it', () => {
    // The memo takes a walked parent in one step (a 2 000-deep tree was quadratic per call);
    // the answers, links included, must not change.
    const memo = new Map();
    const paths = ['subalias/b.txt', 'deep/up/b.txt', 'out-rel/secret.txt', 'chain1', 'missing/x/y', 'loop',
      'sub/b.txt', 'sub/missing', 'deep/up/../b.txt', 'sub/../subalias/b.txt'];
    for (let round = 0; round < 2; round++) {
      for (const p of paths) {
        for (const follow of [true, false]) {
          assert.equal(resolveHostPath(ws, p, follow, memo), resolveHostPath(ws, p, follow), `${p} ${follow} round ${round}`);
        }
      }
    }
    assert.ok(memo.has(join(ws, 'sub')));
  });
});
