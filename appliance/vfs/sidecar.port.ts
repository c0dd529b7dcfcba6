/**
 * Where the small client-written files (.nfo, .srt, artwork) are kept, by an opaque id the tree's node names
 * (`sidecarId`): on local disk with LMDB (sidecar.store.ts), in PostgreSQL when several nodes serve one library
 * (sidecar-pg.store.ts), so a subtitle PUT through one node reads back through every other.
 */
export interface SidecarFiles {
  write(id: string, bytes: Buffer): Promise<void>;
  /** Rejects (code ENOENT) when there is no such sidecar. */
  read(id: string): Promise<Buffer>;
  remove(id: string): Promise<void>;
  /**
   * Copies a sidecar under a new id from inside a tree write (VfsService copies a node). Synchronous for the
   * write's sake; a store that cannot copy at once starts the copy here and makes reads of `to` wait for it.
   */
  copySync(from: string, to: string): void;
}
