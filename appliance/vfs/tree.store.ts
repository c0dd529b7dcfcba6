import type { Database } from 'lmdb';
import { decodeLayout, encodeLayout, isPackedLayout, LayoutCodecError } from '../layout/index.js';
import { forgetSharedStructures, reconcileSharedStructures } from '../store/index.js';
import { LayoutCache } from './layout-cache.js';
import { ListingCache } from './listing-cache.js';
import { baseName, parentOf } from './path.js';
import type { TreeStore } from './tree.port.js';
import type { FileLayout, VfsNode } from './types.js';
import { subtreeOf } from './subtree.js';
import { nodeRecord } from './tree-nodes.store.js';

/** The LMDB databases the tree lives in: `openTreeNodes(store)` and `store.openDb('vfs-layouts')` in the app. */
export interface VfsDatabases {
  /** Opened by `openTreeNodes` (tree-nodes.store.ts): records share their definitions. */
  nodes: Database;
  layouts: Database;
  /** `store.openDb('vfs-meta')`: the count of tree writes (`writes`); without it the count stays 0. */
  meta?: Database;
}

/**
 * The virtual tree's port (tree.port.ts) on LMDB: reads straight from LMDB's memory map. A node's key is the array `[parent, name]`, so the children of a directory are one
 * contiguous key range starting at `[parent]` (listing is a range scan, not a scan of the tree). Layouts (the
 * article maps, which can be tens of thousands of entries) sit in their own database so listings never load them.
 *
 * Not `parent + NUL + name` strings: lmdb's key encoding (ordered-binary) does not keep such strings in plain byte
 * order; with parents of about 35-60 characters a range scan over `dir + NUL` .. `dir + \u0001` found nothing,
 * so real release folders listed empty. Array keys are ordered element by element by design.
 *
 * A layout is stored packed (appliance/layout/packed/: columns, message-ids against their template, ~1-25 bytes
 * per article instead of ~100 as msgpack objects) and decoded here, so the VFS only ever sees `FileLayout`.
 */
export class LmdbTreeStore implements TreeStore {
  /** Layouts read lately, decoded (layout-cache.ts); a write of one forgets it. */
  private readonly decoded = new LayoutCache();
  /** Listings read lately (listing-cache.ts); a write drops the folders it touches once it has committed. */
  private readonly listings = new ListingCache(LISTING_CACHE_NODES);
  /** The folders the write running now changes; null outside a write (reads inside one see its own writes). */
  private touched: Set<string> | null = null;
  /** The layouts the write running now changes: forgotten again once it has committed. */
  private layoutsWritten: Set<string> | null = null;

  constructor(private readonly db: VfsDatabases) {}

  get(path: string): VfsNode | undefined {
    if (path === '/') return ROOT;
    return this.db.nodes.get(keyOf(path)) as VfsNode | undefined;
  }

  children(dir: string): VfsNode[] {
    const cached = this.touched ? undefined : this.listings.get(dir);
    if (cached) return [...cached];
    const out: VfsNode[] = [];
    // `[dir]` sorts just before every `[dir, name]`; stop at the first key of another parent.
    for (const { key, value } of this.db.nodes.getRange({ start: [dir] })) {
      if (!Array.isArray(key) || key[0] !== dir) break;
      out.push(value as VfsNode);
    }
    if (!this.touched) this.listings.set(dir, [...out]);
    return out;
  }

  /** Every node at or below `path`, parents before children. */
  subtree(path: string): VfsNode[] {
    return subtreeOf(this, path);
  }

  /** Must run inside a transaction (see `write`). */
  put(node: VfsNode): void {
    this.touch(parentOf(node.path));
    void this.db.nodes.put(keyOf(node.path), nodeRecord(node));
  }

  delete(path: string): void {
    this.touch(parentOf(path));
    void this.db.nodes.remove(keyOf(path));
  }

  private touch(dir: string): void {
    this.touched?.add(dir);
    this.listings.drop(dir);
  }

  /** Decoded from its packed form (kept decoded while read: layout-cache.ts); a record of the shape before migration 3 is read as it is. */
  layout(id: string): FileLayout | undefined {
    const cached = this.decoded.get(id);
    if (cached) return cached;
    const value: unknown = this.db.layouts.get(id);
    if (value === undefined || !isPackedLayout(value)) return value as FileLayout | undefined;
    let layout: FileLayout;
    try {
      layout = decodeLayout(value);
    } catch (e) {
      if (e instanceof LayoutCodecError) throw new LayoutCodecError(`${e.detail} (layout ${id})`);
      throw e;
    }
    if (!this.touched) this.decoded.set(id, layout);
    return layout;
  }

  putLayout(id: string, layout: FileLayout): void {
    this.layoutWritten(id);
    void this.db.layouts.put(id, encodeLayout(layout));
  }

  /** `putLayout` of a layout already packed (a replica copying what PostgreSQL keeps, tree-replica.store.ts). */
  putPackedLayout(id: string, packed: Uint8Array): void {
    this.layoutWritten(id);
    void this.db.layouts.put(id, packed);
  }

  deleteLayout(id: string): void {
    this.layoutWritten(id);
    void this.db.layouts.remove(id);
  }

  /** Outside any transaction: commits the layout on its own (a new job's layouts go in before its nodes). */
  async storeLayout(id: string, layout: FileLayout): Promise<void> {
    this.decoded.forget(id);
    await this.db.layouts.put(id, encodeLayout(layout));
    this.decoded.forget(id); // a read while the commit was on its way kept the old one
  }

  /** A layout written inside `write`: forgotten now and again once the write has committed. */
  private layoutWritten(id: string): void {
    this.decoded.forget(id);
    this.layoutsWritten?.add(id);
  }

  /** Outside any transaction: removes layouts stored for a job that was then refused. */
  async dropLayouts(ids: readonly string[]): Promise<void> {
    ids.forEach((id) => this.decoded.forget(id));
    if (ids.length > 0) await this.db.layouts.transaction(() => ids.forEach((id) => void this.db.layouts.remove(id)));
    ids.forEach((id) => this.decoded.forget(id));
  }

  /**
   * How many writes the tree has committed, ever: bumped inside each `write`'s transaction, so a reader that noted
   * the count when it was in step with the tree knows, by a different count later, that the tree changed since
   * (health's start skips its walk of the tree when nothing did; docs/health.md "Start-up").
   */
  writes(): number {
    return (this.db.meta?.get(WRITES) as number | undefined) ?? 0;
  }

  /** Runs writes atomically: either the whole job/move lands or none of it does. */
  write<T>(action: () => T): Promise<T> {
    const touched = new Set<string>();
    const layouts = new Set<string>();
    const run = () => {
      // a write before that rolled back may have taken a record definition with it (shared-structures.ts)
      reconcileSharedStructures(this.db.nodes);
      if (this.db.meta) void this.db.meta.put(WRITES, this.writes() + 1);
      this.touched = touched;
      this.layoutsWritten = layouts;
      try {
        return action();
      } catch (err) {
        forgetSharedStructures(this.db.nodes); // this transaction rolls back, with any definition it saved
        throw err;
      } finally {
        this.touched = null;
        this.layoutsWritten = null;
      }
    };
    // A child transaction: an action that throws rolls back what it wrote (lmdb's plain async `transaction` would
    // commit the writes made before the throw). Dropped again once committed: a listing or layout read while the
    // commit was on its way still held the old one.
    return this.db.nodes.childTransaction(run).finally(() => {
      touched.forEach((dir) => this.listings.drop(dir));
      layouts.forEach((id) => this.decoded.forget(id));
    });
  }
}

/** Nodes the listing cache holds at most (a few MB): a category of 10,000 job folders and the folders around it. */
const LISTING_CACHE_NODES = 25_000;

/** The key of the write count in `vfs-meta`. */
const WRITES = 'writes';

const ROOT: VfsNode = Object.freeze({
  path: '/',
  name: '',
  type: 'directory',
  size: 0,
  createdAt: 0,
  modifiedAt: 0,
  etag: '"root"',
}) as VfsNode;

export function keyOf(path: string): [string, string] {
  return [parentOf(path), baseName(path)];
}
