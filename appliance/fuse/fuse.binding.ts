import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { addonPath } from '../addons/addon-path.js';

/** Opaque handles owned by the addon. */
export type WindowTable = { readonly __table: unique symbol };
export type NativeMount = { readonly __mount: unique symbol };

/** The operations the FUSE threads hand to JS (appliance/fuse/native/src/mount.h). */
export const Op = { getattr: 1, readdir: 2, open: 3, read: 4, release: 5, unlink: 6, rename: 7 } as const;

/**
 * Our FUSE 3 addon (appliance/fuse/native, built by `npm install` through scripts/build-native.mjs). Reads the
 * window holds are answered on the FUSE thread; every other request reaches `dispatch` and waits for `reply`.
 */
export interface SpoolFuseAddon {
  createTable(): WindowTable;
  openWindow(t: WindowTable, fh: number, size: number): number;
  closeWindow(t: WindowTable, fh: number): number;
  /** 0 published, -1 no such window, -2 overlaps a published span, -3 past the end of the file. */
  publish(t: WindowTable, fh: number, offset: number, bytes: Uint8Array): number;
  /** 0 retired (no FUSE thread is copying from it any more), -1 nothing published there. */
  retire(t: WindowTable, fh: number, offset: number): number;
  /** End of the furthest read served natively (0: none yet), -1 when the window is gone; re-arms the wake-up. */
  takeProgress(t: WindowTable, fh: number): number;
  /** Bytes the window served natively since the last take (a read handle takes it at release), -1: no window. */
  takeServed(t: WindowTable, fh: number): number;
  /** The FUSE thread's own lookup: bytes copied into target, or -1 when some byte is not published. */
  readWindow(t: WindowTable, fh: number, offset: number, length: number, target: Uint8Array): number;
  /** [reads answered natively, bytes answered natively, reads sent to JS]. */
  stats(t: WindowTable): [number, number, number];
  mount(
    t: WindowTable,
    mountPoint: string,
    options: string,
    dispatch: (op: number, id: number, path: string, a?: number | string, b?: number, c?: number) => void,
    progress: (fh: number) => void,
  ): NativeMount;
  reply(m: NativeMount, id: number, result: number, a?: unknown, b?: unknown, c?: unknown): boolean;
  unmount(m: NativeMount, done: () => void): void;
  /**
   * Drops the kernel's cached attributes of each path (libfuse `fuse_invalidate_path`), on libuv's thread pool:
   * never on the JS thread, which must stay free to answer the requests the kernel holds locks for. `done` gets
   * one result per path: 0, -ENOENT when the kernel held nothing for it, -ENOTCONN once unmounting.
   */
  invalidate(m: NativeMount, paths: string[], done: (results: number[]) => void): void;
}

const require = createRequire(import.meta.url);

function load(): { addon: SpoolFuseAddon | null; error: string } {
  const path = addonPath(import.meta.url, 'fuse', 'spool_fuse.node');
  if (!path)
    return {
      addon: null,
      error:
        'The FUSE addon is not built. Install the FUSE 3 headers and tools (apt-get install libfuse3-dev fuse3), ' +
        'then run: npm run build:native',
    };
  try {
    return { addon: require(path) as SpoolFuseAddon, error: '' };
  } catch (e) {
    return { addon: null, error: `The FUSE addon failed to load (${(e as Error).message}); run: npm run build:native` };
  }
}

const loaded = load();
/** Null when the addon is missing; `addonError` then says how to build it (shown by the mount status). */
export const addon = loaded.addon;
export const addonError = loaded.error;

export function requireAddon(): SpoolFuseAddon {
  if (!addon) throw new Error(addonError);
  return addon;
}

/** Negative errnos, as FUSE answers them. */
const E = constants.errno;
export const Errno = {
  ENOENT: -E.ENOENT,
  EIO: -E.EIO,
  EBADF: -E.EBADF,
  EACCES: -E.EACCES,
  EEXIST: -E.EEXIST,
  EINVAL: -E.EINVAL,
  EROFS: -E.EROFS,
  ETIMEDOUT: -E.ETIMEDOUT,
} as const;
