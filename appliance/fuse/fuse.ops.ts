import { Fuse, type FuseOperations, type FuseStats } from './fuse.binding.js';
import { AppError } from '../http/errors.js';
import { ReadStream } from '../vfs/read-stream.js';
import type { VfsReader } from '../vfs/reader.js';
import type { VfsService } from '../vfs/vfs.service.js';
import type { VfsNode } from '../vfs/types.js';

export interface FuseOpsOptions {
  uid: number;
  gid: number;
  /** Permission bits removed from 0777 (dirs) / 0666 (files), like a mount's umask. */
  umask: number;
  readOnly: boolean;
  /** Articles fetched ahead of a sequential reader. */
  readAhead: () => number;
  /** A read still waiting for the network after this long answers ETIMEDOUT (fuse-native's own per-op timer is off for reads). */
  readTimeoutMs?: number;
}

interface Handle {
  stream: ReadStream;
  ac: AbortController;
}

/** The FUSE callbacks over the same VFS and reader that WebDAV uses. Errors map to errnos, never throw. */
export function createFuseOps(vfs: VfsService, reader: VfsReader, o: FuseOpsOptions): FuseOperations {
  const handles = new Map<number, Handle>();
  let nextFd = 10;
  const stat = (n: VfsNode): FuseStats => {
    const dir = n.type === 'directory';
    return {
      mode: (dir ? 0o040000 | (0o777 & ~o.umask) : 0o100000 | (0o666 & ~o.umask)) & (o.readOnly ? ~0o222 : ~0),
      uid: o.uid,
      gid: o.gid,
      size: n.size,
      dev: 0,
      nlink: dir ? 2 : 1,
      ino: 0,
      rdev: 0,
      blksize: 4096,
      blocks: Math.ceil(n.size / 512),
      atime: new Date(n.modifiedAt),
      mtime: new Date(n.modifiedAt),
      ctime: new Date(n.createdAt),
    };
  };
  return {
    getattr(path, cb) {
      guard(() => {
        const n = vfs.stat(path);
        if (!n || n.health === 'corrupted') return cb(Fuse.ENOENT);
        cb(0, stat(n));
      }, cb);
    },
    readdir(path, cb) {
      guard(() => {
        const kids = vfs.list(path);
        cb(
          0,
          kids.map((k) => k.name),
          kids.map(stat),
        );
      }, cb);
    },
    open(path, flags, cb) {
      guard(() => {
        if ((flags & 3) !== 0) return cb(Fuse.EROFS); // O_WRONLY / O_RDWR: article-backed files are immutable
        const stream = new ReadStream(reader, path, o.readAhead);
        const fd = nextFd++;
        handles.set(fd, { stream, ac: new AbortController() });
        cb(0, fd);
      }, cb);
    },
    read(_path, fd, buffer, length, position, cb) {
      const h = handles.get(fd);
      if (!h) return cb(Fuse.EBADF);
      guard(() => {
        // Most reads of a sequential reader: answered now, from what the read-ahead already holds.
        const n = h.stream.readCached(buffer, position, length);
        if (n !== null) return cb(n);
        readWaiting(h, buffer, length, position, o.readTimeoutMs ?? 15_000, cb);
      }, cb);
    },
    release(_path, fd, cb) {
      const h = handles.get(fd);
      handles.delete(fd);
      h?.ac.abort();
      h?.stream.close();
      cb(0);
    },
    unlink(path, cb) {
      if (o.readOnly) return cb(Fuse.EROFS);
      vfs.remove(path).then(
        () => cb(0),
        (e: unknown) => cb(errno(e)),
      );
    },
    rename(src, dest, cb) {
      if (o.readOnly) return cb(Fuse.EROFS);
      vfs.transfer(src, dest, { mode: 'move', overwrite: true }).then(
        () => cb(0),
        (e: unknown) => cb(errno(e)),
      );
    },
  };
}

/**
 * A read that waits for articles. It carries its own deadline because the mount turns fuse-native's per-op
 * timer off for reads: that timer (a setTimeout and clearTimeout per 128 KiB read) cost more than the read
 * itself on the cached path. After the deadline the kernel gets ETIMEDOUT and the read is cancelled, so it never
 * writes into the kernel's buffer once answered.
 */
function readWaiting(
  h: Handle,
  buffer: Buffer,
  length: number,
  position: number,
  timeoutMs: number,
  cb: (res: number) => void,
): void {
  const ac = new AbortController();
  const onClose = () => ac.abort();
  h.ac.signal.addEventListener('abort', onClose, { once: true });
  let answered = false;
  const answer = (res: number) => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    h.ac.signal.removeEventListener('abort', onClose);
    cb(res);
  };
  const timer = setTimeout(() => {
    ac.abort();
    answer(Fuse.ETIMEDOUT);
  }, timeoutMs);
  h.stream.readInto(buffer, position, length, ac.signal).then(answer, () => answer(Fuse.EIO));
}

function guard(fn: () => void, cb: (err: number) => void): void {
  try {
    fn();
  } catch (e) {
    cb(errno(e));
  }
}

function errno(e: unknown): number {
  if (e instanceof AppError) {
    if (e.status === 404) return Fuse.ENOENT;
    if (e.status === 400) return Fuse.EINVAL;
    if (e.status === 403) return Fuse.EACCES;
    if (e.status === 409 || e.status === 412) return Fuse.EEXIST;
  }
  return Fuse.EIO;
}
