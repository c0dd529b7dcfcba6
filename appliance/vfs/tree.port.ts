import type { FileLayout, VfsNode } from './types.js';

/**
 * The virtual tree's storage port: nodes by path and layouts by id, with no storage types in it. LMDB implements
 * it (tree.store.ts), and PostgreSQL with a node-local LMDB replica for reads (tree-pg.store.ts).
 *
 * Reads are synchronous on purpose: FUSE getattr/lookup/readdir and WebDAV PROPFIND listings and GETs read the tree
 * on every call, and they must not wait for a round trip (docs/architecture.md, "Storage ports"). A network store
 * keeps an in-memory view of the nodes and layouts it serves from, and brings it up to date from its own
 * notifications. Writes are asynchronous: `write` runs `action` as one atomic unit (the whole job or move lands or
 * none of it), and the store commits it where it keeps the tree.
 */
export interface TreeStore {
  get(path: string): VfsNode | undefined;
  /** The nodes directly inside `dir`, by name. */
  children(dir: string): VfsNode[];
  /** Every node at or below `path`, parents before children. */
  subtree(path: string): VfsNode[];
  layout(id: string): FileLayout | undefined;
  /**
   * Runs `action` atomically. `action` is synchronous: it reads with the methods above (which see its own writes)
   * and writes with `put`, `delete`, `putLayout` and `deleteLayout`, which are called only inside it.
   */
  write<T>(action: () => T): Promise<T>;
  /** How many `write`s have committed, ever (persisted; 0 in a store that does not count). */
  writes(): number;
  put(node: VfsNode): void;
  delete(path: string): void;
  putLayout(id: string, layout: FileLayout): void;
  deleteLayout(id: string): void;
  /** Outside any `write`: commits one layout on its own (a new job's layouts go in before its nodes). */
  storeLayout(id: string, layout: FileLayout): Promise<void>;
  /** Outside any `write`: removes layouts stored for a job that was then refused. */
  dropLayouts(ids: readonly string[]): Promise<void>;
  /**
   * A store several nodes share (tree-pg.store.ts) tells of the paths another node's writes changed, once this
   * node reads them (VfsService announces only this node's own writes). Absent where only this node writes.
   */
  onRemoteChange?(listener: (paths: string[]) => void): () => void;
}
