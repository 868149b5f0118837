// SPDX-License-Identifier: MIT
// The hostile-workspace suite: something outside the session changes the tree while the guest
// works in it — a directory swapped for a symlink between two tool calls (the user between
// REPL turns, a `git checkout`, a build script), a file exchanged with an outward link in a
// tight loop during reads and writes (renameat2 RENAME_EXCHANGE), hard links to outside files.
// Whatever happens, no read returns a byte from outside the workspace and no write changes an
// outside inode. Linux only (the exchange loop needs renameat2 through python3's ctypes; the
// after-open check reads /proc/self/fd); skipped with a message elsewhere.
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync, linkSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { DIST, loadHost, tempTree } from './helpers.mjs';

const linux = process.platform === 'linux' && existsSync('/proc/self/fd');
const python = linux && spawnSync('python3', ['-c', 'import ctypes; ctypes.CDLL(None).renameat2'], { encoding: 'utf8' }).status === 0;
const skipAll = linux ? false : 'the hostile-workspace suite needs Linux (/proc/self/fd)';
const skipRace = skipAll || (python ? false : 'the exchange loop needs python3 with ctypes and glibc renameat2');

const { WasiGuest } = await loadHost();

/** A guest over a fresh tree: `ws` is the workspace, `out` a directory beside it. */
async function world(spec, options = {}) {
  const tree = tempTree({ 'ws/': '', 'out/': '', 'state/': '', ...spec });
  after(tree.cleanup);
  const ws = join(tree.dir, 'ws');
  const out = join(tree.dir, 'out');
  const guest = await WasiGuest.load({ workspace: ws, state: join(tree.dir, 'state'), ...options });
  const h = guest.open();
  const call = (method, input) => JSON.parse(guest.call(h, method, JSON.stringify({ fs: 'workspace', ...input })));
  const read = (path) => {
    const r = call('fs.read', { path: `/workspace/${path}` });
    return r.ok ? r.value.text : `error:${r.error.code}`;
  };
  const write = (path, text) => {
    const r = call('fs.write', { path: `/workspace/${path}`, text });
    return r.ok ? 'ok' : `error:${r.error.code}`;
  };
  return { dir: tree.dir, ws, out, call, read, write };
}

/** Content, inode and mtime of every file below `dir`: an outside inode must never change. */
function fingerprint(dir) {
  return readdirSync(dir, { recursive: true }).sort().map((name) => {
    const p = join(dir, name);
    const st = statSync(p);
    return st.isFile() ? `${name} ino=${st.ino} mtime=${st.mtimeMs} ${readFileSync(p, 'utf8')}` : `${name}/`;
  });
}

/**
 * Exchanges paths `a` and `b` (renameat2 RENAME_EXCHANGE) in a loop in another process until
 * stopped (at most 60 s). Resolves once the loop runs; `stop()` ends it and waits for the exit.
 */
async function exchangeLoop(a, b) {
  const code = [
    'import ctypes, sys, time',
    'libc = ctypes.CDLL(None, use_errno=True)',
    'a, b = sys.argv[1].encode(), sys.argv[2].encode()',
    'end = time.time() + 60',
    'print("ready", flush=True)',
    'n = 0',
    'while time.time() < end:',
    '    if libc.renameat2(-100, a, -100, b, 2) != 0: sys.exit("renameat2 failed: %d" % ctypes.get_errno())',
    '    n += 1',
    'print(n)',
  ].join('\n');
  const child = spawn('python3', ['-c', code, a, b], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (c) => reject(new Error(`exchange loop exited (${c}): ${stderr}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
      assert.equal(stderr.includes('renameat2 failed'), false, stderr);
    },
  };
}

describe('hostile workspace: a directory swapped for a symlink between two calls', { skip: skipAll }, () => {
  test('Regression DirectorySwappedForSymlinkBetweenCalls: reads, stats and listings after the swap are refused', async () => {
    const w = await world({ 'ws/sub/a.txt': 'inside', 'out/secret.txt': 'SECRET' });
    assert.equal(w.read('sub/a.txt'), 'inside'); // the walk remembers sub as a real directory
    rmSync(join(w.ws, 'sub'), { recursive: true });
    symlinkSync(w.out, join(w.ws, 'sub'));
    assert.equal(w.read('sub/secret.txt'), 'error:not_capable');
    assert.equal(w.call('fs.stat', { path: '/workspace/sub/secret.txt' }).error?.code, 'not_capable');
    assert.equal(w.call('fs.list', { path: '/workspace/sub' }).error?.code, 'not_capable');
  });

  test('Regression DirectorySwappedForSymlinkBetweenCalls: a write after the swap changes nothing outside', async () => {
    const w = await world({ 'ws/sub/victim.txt': 'mine', 'out/victim.txt': 'theirs' }, { writable: true });
    // Only a read before the swap: as an edit_file does, the write comes after it.
    assert.equal(w.read('sub/victim.txt'), 'mine');
    const before = fingerprint(w.out);
    rmSync(join(w.ws, 'sub'), { recursive: true });
    symlinkSync(w.out, join(w.ws, 'sub'));
    assert.equal(w.write('sub/victim.txt', 'PWNED'), 'error:not_capable');
    assert.equal(w.write('sub/new.txt', 'PWNED'), 'error:not_capable');
    assert.deepEqual(fingerprint(w.out), before);
  });

  test('Regression AncestorMovedOutAndLinked: the same directory inode, now outside, is refused after the open', async () => {
    // Moving a/ out and linking it back keeps a/b's inode: only the check of what the open
    // reached (the kernel's path of the fd) can tell it is outside now.
    const w = await world({ 'ws/a/b/c.txt': 'inside' }, { writable: true });
    assert.equal(w.read('a/b/c.txt'), 'inside');
    renameSync(join(w.ws, 'a'), join(w.out, 'a'));
    symlinkSync(join(w.out, 'a'), join(w.ws, 'a'));
    writeFileSync(join(w.out, 'a/b/secret.txt'), 'SECRET');
    const before = fingerprint(w.out);
    assert.equal(w.read('a/b/secret.txt'), 'error:not_capable');
    assert.equal(w.read('a/b/c.txt'), 'error:not_capable');
    assert.equal(w.write('a/b/c.txt', 'PWNED'), 'error:not_capable');
    assert.equal(w.write('a/b/fresh.txt', 'PWNED'), 'error:not_capable');
    assert.deepEqual(fingerprint(w.out), before);
  });
});

describe('hostile workspace: renameat2 exchanges racing the guest', { skip: skipRace }, () => {
  const READS = 2000;

  test('Regression ExchangeRaceDuringReads: a file exchanged with an outward link never yields outside bytes', async (t) => {
    const w = await world({ 'ws/x.txt': 'inside', 'out/secret.txt': 'SECRET' });
    symlinkSync(join(w.out, 'secret.txt'), join(w.ws, 'x-link'));
    const loop = await exchangeLoop(join(w.ws, 'x.txt'), join(w.ws, 'x-link'));
    const seen = new Map();
    try {
      for (let i = 0; i < READS; i++) {
        const r = w.read('x.txt');
        seen.set(r, (seen.get(r) ?? 0) + 1);
      }
    } finally {
      await loop.stop();
    }
    t.diagnostic(`outcomes of ${READS} reads: ${JSON.stringify(Object.fromEntries(seen))}`);
    assert.equal(seen.has('SECRET'), false, JSON.stringify(Object.fromEntries(seen)));
    for (const outcome of seen.keys()) assert.match(outcome, /^(inside|error:(not_capable|not_found|io))$/);
  });

  test('Regression ExchangeRaceDuringReads: a directory exchanged with an outward link never yields outside bytes', async (t) => {
    const w = await world({ 'ws/d/f.txt': 'inside', 'out/f.txt': 'SECRET' });
    symlinkSync(w.out, join(w.ws, 'd-link'));
    const loop = await exchangeLoop(join(w.ws, 'd'), join(w.ws, 'd-link'));
    const seen = new Map();
    try {
      for (let i = 0; i < READS; i++) {
        const r = w.read('d/f.txt');
        seen.set(r, (seen.get(r) ?? 0) + 1);
      }
    } finally {
      await loop.stop();
    }
    t.diagnostic(`outcomes of ${READS} reads: ${JSON.stringify(Object.fromEntries(seen))}`);
    assert.equal(seen.has('SECRET'), false, JSON.stringify(Object.fromEntries(seen)));
  });

  test('Regression ExchangeRaceDuringWrites: writes racing the exchange never change an outside inode', async (t) => {
    const w = await world({ 'ws/x.txt': 'inside', 'out/victim.txt': 'theirs' }, { writable: true });
    symlinkSync(join(w.out, 'victim.txt'), join(w.ws, 'x-link'));
    const before = fingerprint(w.out);
    const loop = await exchangeLoop(join(w.ws, 'x.txt'), join(w.ws, 'x-link'));
    const seen = new Map();
    try {
      for (let i = 0; i < 500; i++) {
        const r = w.write('x.txt', `edit ${i}`);
        seen.set(r, (seen.get(r) ?? 0) + 1);
      }
    } finally {
      await loop.stop();
    }
    t.diagnostic(`outcomes of 500 writes: ${JSON.stringify(Object.fromEntries(seen))}`);
    assert.deepEqual(fingerprint(w.out), before);
  });
});

describe('hostile workspace: hard links to outside files', { skip: skipAll }, () => {
  test('Regression HardLinkToOutsideFile: not read, not written through', async () => {
    const w = await world({ 'out/secret.txt': 'SECRET' }, { writable: true });
    linkSync(join(w.out, 'secret.txt'), join(w.ws, 'hl.txt'));
    const before = fingerprint(w.out);
    assert.equal(w.read('hl.txt'), 'error:not_capable');
    assert.equal(w.write('hl.txt', 'PWNED'), 'error:not_capable');
    assert.deepEqual(fingerprint(w.out), before);
  });

  test('Regression HardLinkToOutsideFile: --allow-hardlinks reads them and still never writes through', async () => {
    const w = await world({ 'out/shared.txt': 'shared bytes' }, { writable: true, allowHardLinks: true });
    linkSync(join(w.out, 'shared.txt'), join(w.ws, 'hl.txt'));
    const before = fingerprint(w.out);
    assert.equal(w.read('hl.txt'), 'shared bytes');
    assert.equal(w.write('hl.txt', 'PWNED'), 'error:not_capable');
    assert.deepEqual(fingerprint(w.out), before);
  });

  test('files with one link are read and written as before, new files too', async () => {
    const w = await world({ 'ws/a.txt': 'one' }, { writable: true });
    assert.equal(w.read('a.txt'), 'one');
    assert.equal(w.write('a.txt', 'two'), 'ok');
    assert.equal(readFileSync(join(w.ws, 'a.txt'), 'utf8'), 'two');
    assert.equal(w.write('b.txt', 'new'), 'ok');
    assert.equal(w.read('b.txt'), 'new');
    mkdirSync(join(w.ws, 'dir'));
    assert.equal(w.write('dir', 'x'), 'error:is_a_directory');
  });
});

describe('hostile workspace: special files', { skip: skipAll }, () => {
  // A blocked read would block the host's whole thread (uvwasi opens synchronously), so the read
  // runs in a child process that is killed if it waits.
  test('Regression FifoInWorkspace: a FIFO reads at once, with or without a writer, and fails to write without a reader', (t) => {
    const tree = tempTree({ 'ws/': '', 'state/': '' });
    after(tree.cleanup);
    if (spawnSync('mkfifo', [join(tree.dir, 'ws/pipe')]).status !== 0) {
      t.skip('mkfifo is not available');
      return;
    }
    const script = `
      import { WasiGuest } from ${JSON.stringify(join(DIST, 'guest.js'))};
      const guest = await WasiGuest.load({ workspace: ${JSON.stringify(join(tree.dir, 'ws'))}, state: ${JSON.stringify(join(tree.dir, 'state'))}, writable: true });
      const h = guest.open();
      const read = () => JSON.parse(guest.call(h, 'fs.read', JSON.stringify({ fs: 'workspace', path: '/workspace/pipe' })));
      const alone = read();
      const { openSync, writeSync, constants } = await import('node:fs');
      const writer = openSync(${JSON.stringify(join(tree.dir, 'ws/pipe'))}, constants.O_RDWR | constants.O_NONBLOCK);
      writeSync(writer, 'queued\\n');
      const held = read();
      const { closeSync } = await import('node:fs');
      closeSync(writer);
      const written = JSON.parse(guest.call(h, 'fs.write', JSON.stringify({ fs: 'workspace', path: '/workspace/pipe', text: 'x' })));
      process.stdout.write(JSON.stringify({ alone, held, written }));
    `;
    const r = spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], { timeout: 30_000, encoding: 'utf8' });
    assert.equal(r.signal, null, 'a read or write waited for the other end (killed after 30 s)');
    assert.equal(r.status, 0, r.stderr);
    const { alone, held, written } = JSON.parse(r.stdout);
    assert.deepEqual([written.ok, written.error?.code], [false, 'io'], JSON.stringify(written)); // ENXIO: no reader
    assert.deepEqual([alone.ok, alone.value?.text], [true, ''], JSON.stringify(alone));
    assert.deepEqual([held.ok, held.value?.text], [true, 'queued\n'], JSON.stringify(held));
  });
});
