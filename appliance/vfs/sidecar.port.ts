/**
 * Where sidecars' bytes live (small client-written files: .nfo, .srt, artwork), named by an opaque id the tree
 * node keeps (`sidecarId`). sidecar.store.ts keeps them on local disk (one node), sidecar-pg.store.ts in PostgreSQL (several nodes: a subtitle
 * PUT through one node reads back through every other); app/stores.ts picks the store.
 */
export interface SidecarFiles {
  write(id: string, bytes: Buffer): Promise<void>;
  /** Rejects (code ENOENT) when there is no such sidecar. */
  read(id: string): Promise<Buffer>;
  remove(id: string): Promise<void>;
  /** A copy under a new id (a COPY of the file in the tree), done before the tree's write commits. */
  copySync(from: string, to: string): void;
}
