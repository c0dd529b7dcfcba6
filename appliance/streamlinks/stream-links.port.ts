/** One stream link as kept: which virtual path it opens (a file, or every file under a folder) and until when. */
export interface StreamLinkRecord {
  id: string;
  /** Normalised virtual path, e.g. `/content/movies/Film (2024)/Film (2024).mkv`. */
  path: string;
  /** Whether the link opens every file under `path` (a folder link) rather than `path` itself. */
  folder: boolean;
  /** Unix seconds; 0 for never. */
  expiresAt: number;
  createdAt: number;
  /** The user who made it, or `strm` for the links the strm import strategy writes. */
  createdBy: string;
}

/**
 * Where stream links and the secret that signs them are kept: the node's LMDB (stream-links.store.ts) or the
 * PostgreSQL database several nodes share (stream-links-pg.store.ts). Asynchronous and read on every request, so a
 * link revoked (or a secret rotated) on one node is refused by every node at its next request.
 */
export interface StreamLinkStore {
  /** The signing secret, made on first use (by exactly one node when several race). */
  secret(): Promise<Buffer>;
  /** Replaces the secret: every link signed so far stops working. */
  rotateSecret(): Promise<void>;
  get(id: string): Promise<StreamLinkRecord | undefined>;
  put(link: StreamLinkRecord): Promise<void>;
  /** Removes a link; false when there was none. */
  remove(id: string): Promise<boolean>;
  /** Every link, oldest first. */
  list(): Promise<StreamLinkRecord[]>;
}
