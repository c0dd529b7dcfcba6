import { Errno, Op, type SpoolFuseAddon, type WindowTable } from './fuse.binding.js';
import { AppError } from '../errors/app-error.js';
import type { StreamWindow } from '../vfs/read-stream.js';
import { ReadHandles, type CloseReason, type ReadHandle } from '../vfs/read-handle.js';
import { systemClock } from '../clock/clock.js';
import type { VfsReader } from '../vfs/reader.js';
import type { VfsService } from '../vfs/vfs.service.js';
import type { VfsNode } from '../vfs/types.js';
import { processName } from './process-name.js';

export interface FuseOpsOptions {
  uid: number;
  gid: number;
  /** Permission bits removed from 0777 (dirs) / 0666 (files), like a mount's umask. */
  umask: number;
  readOnly: boolean;
  /** Articles fetched ahead of a sequential reader (and published to the native window). */
  readAhead: () => number;
  /** A read still waiting for the network after this long answers ETIMEDOUT. */
  readTimeoutMs?: number;
  /** Where handles are opened (shared with WebDAV in the app, so one live view sees both); a private set if not. */
  handles?: ReadHandles;
}

/** How an answer reaches the waiting FUSE thread (the addon's reply, bound to one mount). */
export type Answer = (id: number, result: number, a?: unknown, b?: unknown, c?: unknown) => void;

interface Handle {
  read: ReadHandle;
  ac: AbortController;
  /**
   * The buffer of this handle's last answered read, for the next one: with direct I/O a sequential reader's
   * misses are 1 MiB each, and a fresh 1 MiB per miss cost page faults on memory the allocator keeps returning.
   */
  spare: Buffer | null;
}

export interface FuseOps {
  /** One request from a FUSE thread: op, request id, path, then the op's own arguments (open: flags, pid). */
  dispatch(op: number, id: number, path: string, a?: number | string, b?: number, c?: number): void;
  /** The native window served reads of `fh`: let its stream move on. */
  progress(fh: number): void;
  /** After unmount: close every handle the kernel did not release. */
  closeAll(): void;
  readonly openHandles: number;
}

/**
 * The FUSE requests that reach JS, over the same VFS and reader as WebDAV. Errors become negative errnos, never
 * exceptions. Each open file is a read handle (appliance/vfs/read-handle.ts, as for WebDAV) with a native window its
 * read-ahead publishes articles to, so most reads never get here.
 */
export function createFuseOps(
  vfs: VfsService,
  reader: VfsReader,
  o: FuseOpsOptions,
  native: SpoolFuseAddon,
  table: WindowTable,
  answer: Answer,
): FuseOps {
  const handles = new Map<number, Handle>();
  const readHandles = o.handles ?? new ReadHandles(reader, systemClock);
  let nextFh = 1;
  const stat = (n: VfsNode): Float64Array => {
    const dir = n.type === 'directory';
    const mode = (dir ? 0o040000 | (0o777 & ~o.umask) : 0o100000 | (0o666 & ~o.umask)) & (o.readOnly ? ~0o222 : ~0);
    return Float64Array.of(mode, o.uid, o.gid, n.size, dir ? 2 : 1, n.modifiedAt, n.modifiedAt, n.createdAt);
  };
  const windowOf = (fh: number): StreamWindow => ({
    publish: (offset, bytes) => native.publish(table, fh, offset, bytes) === 0,
    retire: (offset) => void native.retire(table, fh, offset),
  });
  const close = (fh: number, reason: CloseReason) => {
    const h = handles.get(fh);
    handles.delete(fh);
    h?.ac.abort();
    // retires every article it published, then unpins them; the exact count of native reads replaces the estimate
    h?.read.close(reason, native.takeServed(table, fh));
    native.closeWindow(table, fh);
  };

  const ops: Record<number, (id: number, path: string, a?: number | string, b?: number, c?: number) => void> = {
    [Op.getattr](id, path) {
      const n = vfs.stat(path);
      // a file under repair stays at its path (docs/health.md "Continuity"): its readable bytes serve, the rest fail
      if (!n) return answer(id, Errno.ENOENT);
      answer(id, 0, stat(n));
    },
    [Op.readdir](id, path) {
      const kids = vfs.list(path, { showCorrupted: true });
      // each entry's attributes too (8 fields each, as getattr's): the addon returns them for a readdirplus
      const attrs = new Float64Array(kids.length * 8);
      kids.forEach((k, i) => attrs.set(stat(k), i * 8));
      answer(
        id,
        0,
        kids.map((k) => k.name),
        Uint8Array.from(kids, (k) => (k.type === 'directory' ? 1 : 0)),
        attrs,
      );
    },
    [Op.open](id, path, flags, pid) {
      if ((Number(flags) & 3) !== 0) return answer(id, Errno.EROFS); // O_WRONLY / O_RDWR: articles are immutable
      const fh = nextFh++;
      // the reading process, when the kernel named one (fuse_get_context: 0 for a request it made itself), and its
      // name as the user agent a FUSE reader has not got (a scanner such as ffprobe is known by it)
      const name = processName(Number(pid));
      const client = Number(pid) > 0 ? { pid: Number(pid), ...(name ? { userAgent: name } : {}) } : {};
      const read = readHandles.open(path, 'fuse', client, { readAhead: o.readAhead, window: windowOf(fh) });
      native.openWindow(table, fh, read.node.size);
      const h: Handle = { read, ac: new AbortController(), spare: null };
      handles.set(fh, h);
      // an admin ended it: the native window closes so every later read comes here and fails
      read.onEnd(() => {
        h.ac.abort();
        native.closeWindow(table, fh);
      });
      answer(id, 0, fh);
    },
    [Op.read](id, _path, fh, offset, length) {
      const h = handles.get(Number(fh));
      if (!h) return answer(id, Errno.EBADF);
      if (h.read.ended) return answer(id, Errno.EIO);
      const len = Number(length);
      const whole = h.spare && h.spare.length >= len ? h.spare : Buffer.allocUnsafeSlow(len);
      const buf = whole.subarray(0, len);
      h.spare = null; // taken: another read of this handle in flight gets its own
      // The addon copies the bytes out during answer(), so the buffer is free again once it returns; a read that
      // failed or timed out may still have a copy running into it, so its buffer is not kept.
      const done = (res: number) => {
        answer(id, res, buf);
        if (res >= 0) h.spare = whole;
      };
      // A miss of the native window that the cache can still answer (an article behind the window, or not yet
      // published): now, without waiting.
      const n = h.read.readCached(buf, Number(offset), len);
      if (n !== null) return done(n);
      readWaiting(h, buf, Number(offset), o.readTimeoutMs ?? 15_000, done);
    },
    [Op.release](id, _path, fh) {
      close(Number(fh), 'done');
      answer(id, 0);
    },
    [Op.unlink](id, path) {
      if (o.readOnly) return answer(id, Errno.EROFS);
      vfs.remove(path).then(
        () => answer(id, 0),
        (e: unknown) => answer(id, errno(e)),
      );
    },
    [Op.rename](id, path, dest) {
      if (o.readOnly) return answer(id, Errno.EROFS);
      vfs.transfer(path, String(dest), { mode: 'move', overwrite: true }).then(
        () => answer(id, 0),
        (e: unknown) => answer(id, errno(e)),
      );
    },
  };

  return {
    dispatch(op, id, path, a, b, c) {
      const handler = ops[op];
      if (!handler) return answer(id, Errno.EIO);
      try {
        handler(id, path, a, b, c);
      } catch (e) {
        answer(id, errno(e)); // a request already answered ignores a second answer
      }
    },
    progress(fh) {
      const end = native.takeProgress(table, fh); // re-arms the wake-up, even for a handle already closed
      if (end > 0) handles.get(fh)?.read.servedUpTo(end);
    },
    closeAll() {
      for (const fh of [...handles.keys()]) close(fh, 'aborted'); // the kernel never released them
    },
    get openHandles() {
      return handles.size;
    },
  };
}

/**
 * A read that waits for articles, with a deadline: after it the kernel gets ETIMEDOUT and the read is cancelled.
 * The bytes reach the kernel only through the answer (the addon copies them), so a late finish writes nothing.
 */
function readWaiting(h: Handle, buf: Buffer, position: number, timeoutMs: number, cb: (res: number) => void): void {
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
    answer(Errno.ETIMEDOUT);
  }, timeoutMs);
  h.read.readInto(buf, position, buf.length, ac.signal).then(answer, () => answer(Errno.EIO));
}

function errno(e: unknown): number {
  if (e instanceof AppError) {
    if (e.status === 404) return Errno.ENOENT;
    if (e.status === 400) return Errno.EINVAL;
    if (e.status === 403) return Errno.EACCES;
    if (e.status === 409 || e.status === 412) return Errno.EEXIST;
  }
  return Errno.EIO;
}
