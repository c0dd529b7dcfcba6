import { readFileSync, writeFileSync } from 'node:fs';
import { requireAddon, type NativeMount, type WindowTable } from './fuse.binding.js';
import { createFuseOps, type FuseOps, type FuseOpsOptions } from './fuse.ops.js';
import type { VfsReader } from '../vfs/reader.js';
import type { VfsService } from '../vfs/vfs.service.js';

export interface ReadCounters {
  /** Reads the native window answered on the FUSE thread, without JS. */
  native_reads: number;
  native_bytes: number;
  /** Reads that went to JS (window misses). */
  js_reads: number;
}

/** How long unmount waits for the FUSE threads before it aborts the connection (a reader kept a file open). */
const UNMOUNT_GRACE_MS = 3_000;

/**
 * One live FUSE 3 mount: the addon's native loop, the JS ops it falls back to, and the table of read windows.
 * `options` are libfuse -o options (allow_other, ro, attr_timeout=…, fsname=…).
 */
export class FuseMount {
  private constructor(
    private readonly native: NativeMount,
    private readonly table: WindowTable,
    private readonly ops: FuseOps,
    /** The FUSE connection number (/sys/fs/fuse/connections/<n>), or -1 when not found. */
    readonly connection: number,
  ) {}

  /**
   * `readAheadKb`: kernel read-ahead asked for on the mount's bdi (root only); 0 keeps the kernel's 128 KiB. Off by
   * default: at 1 MiB the kernel's requests run ahead of the articles published so far, so fewer are answered
   * natively (58-85% instead of ~96%) and 1 GiB dd measured no faster (docs/fuse.md). main.ts reads it from
   * SPOOL_FUSE_READ_AHEAD_KB.
   */
  static start(
    point: string,
    options: string[],
    vfs: VfsService,
    reader: VfsReader,
    o: FuseOpsOptions,
    readAheadKb = 0,
  ): FuseMount {
    const addon = requireAddon();
    const table = addon.createTable();
    let native: NativeMount | null = null;
    const ops = createFuseOps(vfs, reader, o, addon, table, (id, res, a, b, c) => {
      if (native) addon.reply(native, id, res, a, b, c);
    });
    native = addon.mount(
      table,
      point,
      options.join(','),
      (op, id, path, a, b, c) => ops.dispatch(op, id, path, a, b, c),
      (fh) => ops.progress(fh),
    );
    const mount = new FuseMount(native, table, ops, connectionOf(point));
    mount.readAheadKb = raiseReadAhead(mount.connection, readAheadKb);
    return mount;
  }

  /** The mount's kernel read-ahead once raised, or null when it stays at the kernel's default (128 KiB). */
  readAheadKb: number | null = null;

  counters(): ReadCounters {
    const [native_reads, native_bytes, js_reads] = requireAddon().stats(this.table);
    return { native_reads, native_bytes, js_reads };
  }

  /**
   * Makes the kernel forget what it cached about `paths` (removed, moved or replaced in the tree), so the next stat
   * through the mount asks the tree again instead of trusting attributes and entries kept for attr_timeout and
   * dir_cache_time. Runs off the JS thread (fuse.binding.ts); resolves with one result per path.
   */
  invalidate(paths: string[]): Promise<number[]> {
    if (paths.length === 0) return Promise.resolve([]);
    return new Promise((resolve) => requireAddon().invalidate(this.native, paths, resolve));
  }

  get openHandles(): number {
    return this.ops.openHandles;
  }

  /**
   * Unmounts and waits for libfuse's threads. A file still open on the mount keeps the connection (and the
   * threads) alive after the lazy unmount; after a grace period the connection is aborted so stop never hangs.
   */
  async stop(): Promise<void> {
    const addon = requireAddon();
    const done = new Promise<void>((resolve) => addon.unmount(this.native, resolve));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), UNMOUNT_GRACE_MS)));
    if ((await Promise.race([done, late])) === 'late') {
      abortConnection(this.connection);
      await done;
    }
    clearTimeout(timer);
    this.ops.closeAll();
  }
}

/** The minor device number of a FUSE mount is its connection number under /sys/fs/fuse/connections. */
function connectionOf(point: string): number {
  try {
    const escaped = point.replace(/\\/g, '\\134').replace(/ /g, '\\040');
    for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
      const f = line.split(' ');
      if (f[4] === escaped && line.includes(' - fuse')) return Number((f[2] ?? '').split(':')[1] ?? -1);
    }
  } catch {
    // no /proc: nothing to abort later
  }
  return -1;
}

/**
 * The page cache sends a FUSE file's reads no larger than the mount's read-ahead (128 KiB by default), whatever
 * max_read and max_pages allow; raising the bdi's read_ahead_kb is what lets 1 MiB requests through. Root with
 * a writable /sys only; best effort.
 */
function raiseReadAhead(connection: number, kb: number): number | null {
  if (connection < 0 || !(kb > 0)) return null;
  try {
    writeFileSync(`/sys/class/bdi/0:${connection}/read_ahead_kb`, String(kb));
    return kb;
  } catch {
    return null;
  }
}

export function abortConnection(connection: number): boolean {
  if (connection < 0) return false;
  try {
    writeFileSync(`/sys/fs/fuse/connections/${connection}/abort`, '1');
    return true;
  } catch {
    return false; // not root, or the connection is already gone
  }
}
