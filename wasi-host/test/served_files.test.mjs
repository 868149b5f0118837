// SPDX-License-Identifier: MIT
// Read-only opens served by the host (wasi-host/src/served_files.ts, sandbox invariant 14),
// against real files and the kernel's own answers (/proc/self/fd), with a recording stand-in for
// uvwasi: a served file never reaches it, anything else still does.
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, linkSync, lstatSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, tempTree } from './helpers.mjs';

const { wrapWasiImports, WASI_ENOTCAPABLE, WASI_ELOOP } = await import(join(DIST, 'sandbox.js'));
const { SERVED_FD_BASE } = await import(join(DIST, 'served_files.js'));

const ENOENT = 44;
const ENOTDIR = 54;
const ENOTSUP = 58;
const EFAULT = 21;
const FOLLOW = 1;
const OFLAGS_DIRECTORY = 2;
const NONBLOCK = 4;
const READ = (1n << 1n) | (1n << 2n) | (1n << 5n) | (1n << 21n);
const WRITE = 1n << 6n;

const tree = tempTree({
  'ws/a.txt': 'hello, served world',
  'ws/sub/b.txt': 'BBB',
  'ws/alias.txt': { symlink: 'a.txt' },
  'outside/secret.txt': 'SECRET',
});
after(tree.cleanup);
const ws = join(tree.dir, 'ws');
symlinkSync(join(tree.dir, 'outside/secret.txt'), join(ws, 'out-file'));
symlinkSync(join(tree.dir, 'outside'), join(ws, 'out-dir'));
linkSync(join(tree.dir, 'outside/secret.txt'), join(ws, 'hard.txt'));

const onLinux = existsSync('/proc/self/fd');

function fixture({ hardLinks = false, writable = false } = {}) {
  const memory = new WebAssembly.Memory({ initial: 1 });
  const uvwasi = [];
  const stub = (name) => (...args) => {
    uvwasi.push([name, ...args]);
    return 8; // EBADF: the stand-in knows no descriptor
  };
  const names = ['path_open', 'fd_read', 'fd_pread', 'fd_close', 'fd_filestat_get', 'fd_fdstat_get', 'fd_seek',
    'fd_tell', 'fd_write', 'fd_readdir', 'fd_renumber', 'fd_filestat_set_size', 'fd_prestat_dir_name'];
  const w = wrapWasiImports(Object.fromEntries(names.map((n) => [n, stub(n)])),
    [{ guestPath: '/workspace', hostPath: ws, writable, hardLinks }], () => memory);
  const bytes = () => new Uint8Array(memory.buffer);
  const view = () => new DataView(memory.buffer);
  const open = (path, { lookup = FOLLOW, oflags = 0, rights = READ, fdflags = NONBLOCK, dirfd = 3 } = {}) => {
    const n = new TextEncoder().encodeInto(path, bytes().subarray(4096)).written;
    const rc = w.path_open(dirfd, lookup, 4096, n, oflags, rights, 0n, fdflags, 0);
    return { rc, fd: view().getUint32(0, true) };
  };
  // fd_read / fd_pread into the given buffer sizes (iovecs at 256, buffers from 1024 on).
  const read = (fd, sizes, at) => {
    let buf = 1024;
    sizes.forEach((size, i) => {
      view().setUint32(256 + 8 * i, buf, true);
      view().setUint32(260 + 8 * i, size, true);
      buf += size;
    });
    const rc = at === undefined ? w.fd_read(fd, 256, sizes.length, 512) : w.fd_pread(fd, 256, sizes.length, at, 512);
    const n = view().getUint32(512, true);
    return { rc, text: Buffer.from(bytes().subarray(1024, 1024 + n)).toString() };
  };
  return { w, uvwasi, open, read, view };
}

describe('served read-only opens', { skip: !onLinux && 'no /proc/self/fd here: nothing is served' }, () => {
  test('a regular file is opened, read, sought, described and closed by the host, never by uvwasi', () => {
    const { w, uvwasi, open, read, view } = fixture();
    const { rc, fd } = open('a.txt');
    assert.equal(rc, 0);
    assert.ok(fd >= SERVED_FD_BASE, `fd ${fd}`);
    assert.equal(w.fd_filestat_get(fd, 600), 0);
    const st = lstatSync(join(ws, 'a.txt'), { bigint: true });
    assert.equal(view().getBigUint64(600, true), st.dev);
    assert.equal(view().getBigUint64(608, true), st.ino);
    assert.equal(view().getUint8(616), 4, 'a regular file');
    assert.equal(view().getBigUint64(632, true), 19n, 'size');
    assert.equal(view().getBigUint64(648, true) / 1000000n, st.mtimeNs / 1000000n, 'mtime to the millisecond');
    assert.deepEqual(read(fd, [5, 2]), { rc: 0, text: 'hello, ' });
    assert.deepEqual(read(fd, [100]), { rc: 0, text: 'served world' });
    assert.deepEqual(read(fd, [100]), { rc: 0, text: '' }, 'the end');
    assert.deepEqual(read(fd, [6], 7n), { rc: 0, text: 'served' }, 'pread');
    assert.equal(w.fd_tell(fd, 700), 0);
    assert.equal(view().getBigUint64(700, true), 19n, 'pread left the position');
    assert.equal(w.fd_seek(fd, -5n, 2, 700), 0); // from the end
    assert.equal(view().getBigUint64(700, true), 14n);
    assert.deepEqual(read(fd, [100]), { rc: 0, text: 'world' });
    assert.equal(w.fd_seek(fd, 0n, 0, 700), 0);
    assert.equal(w.fd_seek(fd, 6n, 1, 700), 0);
    assert.deepEqual(read(fd, [1]), { rc: 0, text: ' ' });
    assert.equal(w.fd_seek(fd, -100n, 1, 700), 28, 'before the start: EINVAL');
    assert.equal(w.fd_fdstat_get(fd, 800), 0);
    assert.equal(view().getUint8(800), 4);
    assert.equal(view().getUint16(802, true), NONBLOCK);
    assert.equal(view().getBigUint64(808, true), READ, 'the read rights asked for');
    assert.equal(w.fd_filestat_get(fd, 600), 0, 'a second fstat asks the kernel');
    assert.equal(view().getBigUint64(632, true), 19n);
    assert.equal(w.fd_close(fd), 0);
    assert.deepEqual(uvwasi, [], 'uvwasi saw nothing');
    // A closed number is no longer served: the call goes to uvwasi (which knows no such fd).
    assert.equal(w.fd_close(fd), 8);
    assert.equal(uvwasi.length, 1);
  });

  test('anything but a regular file goes through uvwasi; a read-only open of a file is served again', () => {
    const { uvwasi, open } = fixture({ writable: true });
    open('sub');
    assert.deepEqual(uvwasi.map((c) => c[0]), ['path_open'], 'a directory opened without O_DIRECTORY');
    open('sub', { oflags: OFLAGS_DIRECTORY });
    open('a.txt', { rights: READ | WRITE });
    open('a.txt', { fdflags: NONBLOCK | 1 }); // append
    assert.equal(uvwasi.filter((c) => c[0] === 'path_open').length, 4, 'directories, a write right, an fd flag');
    assert.equal(fixture().open('a.txt', { rights: READ | WRITE }).rc, 69, 'read-only root: EROFS');
    assert.ok(open('sub/b.txt').fd >= SERVED_FD_BASE);
    assert.equal(uvwasi.length, 4);
  });

  test('links: followed inside when asked, ELOOP when not, refused when they lead out', () => {
    const { uvwasi, open, read } = fixture();
    const alias = open('alias.txt');
    assert.equal(alias.rc, 0);
    assert.deepEqual(read(alias.fd, [5]), { rc: 0, text: 'hello' });
    assert.equal(open('alias.txt', { lookup: 0 }).rc, WASI_ELOOP);
    assert.equal(open('out-file').rc, WASI_ENOTCAPABLE);
    assert.equal(open('out-dir/secret.txt').rc, WASI_ENOTCAPABLE);
    assert.equal(open('missing.txt').rc, ENOENT);
    assert.equal(open('a.txt/x').rc, ENOTDIR);
    assert.deepEqual(uvwasi, []);
  });

  test('a hard link is refused unless the root allows them', () => {
    assert.equal(fixture().open('hard.txt').rc, WASI_ENOTCAPABLE);
    const allowed = fixture({ hardLinks: true });
    const { rc, fd } = allowed.open('hard.txt');
    assert.equal(rc, 0);
    assert.deepEqual(allowed.read(fd, [6]), { rc: 0, text: 'SECRET' });
  });

  test('nothing writes through a served descriptor, and it is no directory', () => {
    const { w, uvwasi, open, view } = fixture();
    const { fd } = open('a.txt');
    assert.equal(w.fd_write(fd, 256, 1, 512), WASI_ENOTCAPABLE);
    assert.equal(w.fd_filestat_set_size(fd, 0n), WASI_ENOTCAPABLE);
    assert.equal(w.fd_readdir(fd, 0, 10, 0n, 512), ENOTDIR);
    assert.equal(w.fd_renumber(fd, 3), ENOTSUP);
    assert.equal(w.fd_renumber(3, fd), ENOTSUP);
    assert.equal(open('x', { dirfd: fd }).rc, ENOTDIR);
    // Pointers outside the memory: EFAULT, nothing read.
    view().setUint32(256, 65530, true);
    view().setUint32(260, 100, true);
    assert.equal(w.fd_read(fd, 256, 1, 512), EFAULT);
    assert.equal(w.fd_read(fd, 65535, 1, 512), EFAULT);
    assert.equal(w.fd_filestat_get(fd, 65500), EFAULT);
    assert.deepEqual(uvwasi, []);
  });
});
