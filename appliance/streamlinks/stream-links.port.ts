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

/** Where stream links and the secret that signs them are kept (stream-links.store.ts on the node's LMDB). */
export interface StreamLinkStore {
  /** The signing secret, made on first use. */
  secret(): Buffer;
  /** Replaces the secret: every link signed so far stops working. */
  rotateSecret(): Promise<void>;
  get(id: string): StreamLinkRecord | undefined;
  put(link: StreamLinkRecord): Promise<void>;
  /** Removes a link; false when there was none. */
  remove(id: string): Promise<boolean>;
  list(): StreamLinkRecord[];
}
