// SPDX-License-Identifier: MIT
// Regular files the sandbox opens and reads for the guest itself (sandbox.ts, invariant 14).
// A read of a workspace file through uvwasi cost an open the sandbox could not see (so it had
// to find uvwasi's descriptor by a probe or a guess and confirm it by device and inode), uvwasi's
// own fstat, and a read through its descriptor table. For an open that only reads, the host
// now opens the file itself — with the last component not followed and O_NONBLOCK — checks what
// the open reached on its own descriptor (sandbox.ts does, before calling `add`), and answers
// the guest's calls on it here. Invariants:
//  - A served descriptor is a guest fd number from SERVED_FD_BASE up, which uvwasi's table
//    (numbers from 0, one per open file) never reaches, so no uvwasi call ever sees one: every
//    import that takes an fd is answered here for a served one (`answer`), with an error where
//    the call makes no sense for a read-only regular file.
//  - Only regular files are served, read-only: no write, truncate, allocate, set-times or
//    set-size reaches one (ENOTCAPABLE), so serving never changes a file.
//  - Reads go at the descriptor's own position (pread on the host descriptor), which fd_seek and
//    fd_tell keep; pread leaves it alone. Guest pointers are unsigned 32-bit and bounds-checked
//    (EFAULT outside the memory).
//  - fd_filestat_get answers the kernel's fstat of the host descriptor (device and inode exact;
//    times in nanoseconds from Node's millisecond values, so exact to about a microsecond); the
//    first one after the open answers the fstat the open's check made (a moment earlier).
import { closeSync, fstatSync, readSync } from 'node:fs';
import { fstatExact, type OpenedFile } from './opened_file.js';

/** Guest fd numbers of served files start here (uvwasi's start at 0 and grow by one). */
export const SERVED_FD_BASE = 0x4000_0000;

// WASI preview1 errno values (wasi_snapshot_preview1 `errno`).
const ESUCCESS = 0;
const EBADF = 8;
const EFAULT = 21;
const EINVAL = 28;
const EIO = 29;
const ENOTDIR = 54;
const ENOTSOCK = 57;
const ENOTSUP = 58;
const ENOTCAPABLE = 76;

/** Node's error codes as WASI errno values (what a failed host open or read answers). */
const ERRNO: Readonly<Record<string, number>> = {
  E2BIG: 1, EACCES: 2, EAGAIN: 6, EBADF: 8, EBUSY: 10, EEXIST: 20, EFAULT: 21, EFBIG: 22, EINTR: 27,
  EINVAL: 28, EIO: 29, EISDIR: 31, ELOOP: 32, EMFILE: 33, EMLINK: 34, ENAMETOOLONG: 37, ENFILE: 41,
  ENODEV: 43, ENOENT: 44, ENOMEM: 48, ENOSPC: 51, ENOSYS: 52, ENOTDIR: 54, ENOTSUP: 58, ENXIO: 60,
  EOVERFLOW: 61, EPERM: 63, EROFS: 69, ESPIPE: 70, ESTALE: 72, ETIMEDOUT: 73, ETXTBSY: 74,
};

/** The WASI errno of a thrown Node error (EIO for anything unknown). */
export function wasiErrno(error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? ERRNO[code] ?? EIO : EIO;
}

const FILETYPE_REGULAR_FILE = 4;
const FDFLAGS_NONBLOCK = 4;
const WHENCE_SET = 0;
const WHENCE_CUR = 1;
const WHENCE_END = 2;
// fd_read (1), fd_seek (2), fd_tell (5), fd_advise (7), fd_filestat_get (21), poll_fd_readwrite (27).
const READ_RIGHTS = (1n << 1n) | (1n << 2n) | (1n << 5n) | (1n << 7n) | (1n << 21n) | (1n << 27n);

interface Served {
  osFd: number;
  position: number;
  rights: bigint;
  nonblock: boolean;
  /** The open's fstat, until the first fd_filestat_get takes it. */
  opened: OpenedFile | undefined;
}

/** What a call on a served descriptor that is not answered below gets, by import name. */
function refusalOf(name: string): number {
  if (name.startsWith('path_')) return ENOTDIR;
  if (name.startsWith('sock_')) return ENOTSOCK;
  if (name === 'fd_readdir') return ENOTDIR;
  if (name === 'fd_prestat_get' || name === 'fd_prestat_dir_name') return EBADF;
  if (name === 'fd_renumber' || name === 'fd_fdstat_set_flags' || name === 'fd_fdstat_set_rights') return ENOTSUP;
  return ENOTCAPABLE; // fd_write, fd_pwrite, fd_allocate, fd_filestat_set_size / _set_times, …
}

/** The argument positions that hold an fd, for the imports that take one. */
export function fdArgumentsOf(name: string): readonly number[] {
  if (name === 'fd_renumber') return [0, 1];
  if (name === 'path_rename' || name === 'path_link') return [0, 3];
  if (name.startsWith('fd_') || name.startsWith('path_') || name.startsWith('sock_')) return [0];
  return [];
}

export class ServedFiles {
  private readonly files = new Map<number, Served>();
  private readonly free: number[] = [];
  private next = SERVED_FD_BASE;

  constructor(private readonly memory: () => { readonly buffer: ArrayBuffer }) {}

  /**
   * Takes `osFd` (an open regular file, `file` as the check found it) as a new guest fd; returns
   * its number.
   */
  add(osFd: number, file: OpenedFile, rights: bigint, fdflags: number): number {
    const fd = this.free.pop() ?? this.next++;
    this.files.set(fd, {
      osFd, position: 0, rights: rights & READ_RIGHTS, nonblock: (fdflags & FDFLAGS_NONBLOCK) !== 0, opened: file,
    });
    return fd;
  }

  /** Closes served `fd`; the host descriptor it freed (for the sandbox's bookkeeping). */
  private close(fd: number): { rc: number; osFd?: number } {
    const file = this.files.get(fd) as Served;
    this.files.delete(fd);
    this.free.push(fd);
    try {
      closeSync(file.osFd);
    } catch (e) {
      return { rc: wasiErrno(e), osFd: file.osFd };
    }
    return { rc: ESUCCESS, osFd: file.osFd };
  }

  /**
   * Answers import `name` called with `args` when one of its fd arguments (at `positions`,
   * fdArgumentsOf(name)) is served; undefined when none is. `onClose` learns the host descriptor
   * a guest close freed.
   */
  answer(name: string, positions: readonly number[], args: readonly unknown[],
         onClose: (osFd: number) => void): number | undefined {
    let any = false;
    for (const i of positions) any = any || this.files.has(Number(args[i]) >>> 0);
    if (!any) return undefined;
    const fd = Number(args[0]) >>> 0;
    const file = this.files.get(fd);
    if (file === undefined || positions.length > 1) return refusalOf(name);
    switch (name) {
      case 'fd_read':
        return this.read(file, Number(args[1]), Number(args[2]), Number(args[3]), undefined);
      case 'fd_pread':
        return this.read(file, Number(args[1]), Number(args[2]), Number(args[4]), BigInt(args[3] as bigint));
      case 'fd_seek':
        return this.seek(file, BigInt(args[1] as bigint), Number(args[2]), Number(args[3]));
      case 'fd_tell':
        return this.writeU64(Number(args[1]), BigInt(file.position));
      case 'fd_filestat_get':
        return this.filestat(file, Number(args[1]));
      case 'fd_fdstat_get':
        return this.fdstat(file, Number(args[1]));
      case 'fd_advise':
      case 'fd_sync':
      case 'fd_datasync':
        return ESUCCESS; // a hint; nothing to flush on a read-only descriptor
      case 'fd_close': {
        const { rc, osFd } = this.close(fd);
        if (osFd !== undefined) onClose(osFd);
        return rc;
      }
      default:
        return refusalOf(name);
    }
  }

  private view(ptr: number, len: number): Uint8Array | undefined {
    const at = ptr >>> 0;
    const n = len >>> 0;
    const buffer = this.memory().buffer;
    return at + n > buffer.byteLength ? undefined : new Uint8Array(buffer, at, n);
  }

  private writeU64(ptr: number, value: bigint): number {
    const at = ptr >>> 0;
    if (at + 8 > this.memory().buffer.byteLength) return EFAULT;
    new DataView(this.memory().buffer).setBigUint64(at, value, true);
    return ESUCCESS;
  }

  // fd_read (at = undefined: at the position, which moves) and fd_pread (at `at`).
  private read(file: Served, iovs: number, count: number, nread: number, at: bigint | undefined): number {
    const base = iovs >>> 0;
    const n = count >>> 0;
    if (base + 8 * n > this.memory().buffer.byteLength || (nread >>> 0) + 4 > this.memory().buffer.byteLength) {
      return EFAULT;
    }
    if (at !== undefined && (at < 0n || at > BigInt(Number.MAX_SAFE_INTEGER))) return EINVAL;
    let position = at === undefined ? file.position : Number(at);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const iov = new DataView(this.memory().buffer, base + 8 * i, 8);
      const buf = this.view(iov.getUint32(0, true), iov.getUint32(4, true));
      if (buf === undefined) return EFAULT;
      if (buf.length === 0) continue;
      let got: number;
      try {
        got = readSync(file.osFd, buf, 0, buf.length, position);
      } catch (e) {
        if (total > 0) break; // what was read is answered; the error comes with the next read
        return wasiErrno(e);
      }
      position += got;
      total += got;
      if (got < buf.length) break;
    }
    if (at === undefined) file.position = position;
    new DataView(this.memory().buffer).setUint32(nread >>> 0, total, true);
    return ESUCCESS;
  }

  private seek(file: Served, offset: bigint, whence: number, out: number): number {
    let base: number;
    if (whence === WHENCE_SET) base = 0;
    else if (whence === WHENCE_CUR) base = file.position;
    else if (whence === WHENCE_END) {
      try {
        base = fstatSync(file.osFd).size;
      } catch (e) {
        return wasiErrno(e);
      }
    } else return EINVAL;
    const target = BigInt(base) + BigInt.asIntN(64, offset);
    if (target < 0n || target > BigInt(Number.MAX_SAFE_INTEGER)) return EINVAL;
    const rc = this.writeU64(out, target);
    if (rc === ESUCCESS) file.position = Number(target);
    return rc;
  }

  // preview1 filestat: dev u64 @0, ino u64 @8, filetype u8 @16, nlink u64 @24, size u64 @32,
  // atim @40, mtim @48, ctim @56 (u64 nanoseconds).
  private filestat(file: Served, ptr: number): number {
    const out = this.view(ptr, 64);
    if (out === undefined) return EFAULT;
    let st: Pick<OpenedFile, 'dev' | 'ino' | 'links' | 'size' | 'times'>;
    if (file.opened !== undefined) {
      st = file.opened;
      file.opened = undefined;
    } else {
      try {
        st = fstatExact(file.osFd);
      } catch (e) {
        return wasiErrno(e);
      }
    }
    const view = new DataView(out.buffer, out.byteOffset, 64);
    out.fill(0);
    view.setBigUint64(0, st.dev, true);
    view.setBigUint64(8, st.ino, true);
    view.setUint8(16, FILETYPE_REGULAR_FILE);
    view.setBigUint64(24, st.links, true);
    view.setBigUint64(32, st.size, true);
    view.setBigUint64(40, st.times[0], true);
    view.setBigUint64(48, st.times[1], true);
    view.setBigUint64(56, st.times[2], true);
    return ESUCCESS;
  }

  // preview1 fdstat: filetype u8 @0, flags u16 @2, rights_base u64 @8, rights_inheriting u64 @16.
  private fdstat(file: Served, ptr: number): number {
    const out = this.view(ptr, 24);
    if (out === undefined) return EFAULT;
    const view = new DataView(out.buffer, out.byteOffset, 24);
    out.fill(0);
    view.setUint8(0, FILETYPE_REGULAR_FILE);
    view.setUint16(2, file.nonblock ? FDFLAGS_NONBLOCK : 0, true);
    view.setBigUint64(8, file.rights, true);
    view.setBigUint64(16, 0n, true);
    return ESUCCESS;
  }
}
