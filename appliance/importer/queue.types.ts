import type { QueueItemJson, QueuePriority, QueueStatus } from './queue.wire.js';

/**
 * One NZB waiting for, going through, or done with import, as stored in LMDB. Times are epoch ms here and ISO
 * strings on the wire (queue.wire.ts).
 */
export interface QueueRecord {
  id: number;
  /** Where the NZB came from: the scanned file's absolute path, or the uploaded file's name. */
  nzbPath: string;
  /** The NZB's own name without `.nzb`: the job directory unless the NZB names a title. */
  name: string;
  /** The category as the caller sent it (SABnzbd echoes it back byte for byte); null = the default one. */
  category: string | null;
  priority: QueuePriority;
  status: QueueStatus;
  /** The job directory in the virtual tree; reserved before the write so a re-run after a crash replaces it. */
  targetPath: string | null;
  /** Decoded bytes once imported; the NZB's claimed (encoded) total before that. */
  fileSize: number;
  retryCount: number;
  maxRetries: number;
  errorMessage: string | null;
  /**
   * Why it failed, for code that acts on it (absent on older records): `ARCHIVE_COMPRESSED` (a compressed RAR/7z:
   * the SABnzbd helper may forward the NZB to a fallback host), `ARCHIVE_PASSWORD_MISSING`/`_WRONG`, ... see
   * docs/archives.md.
   */
  errorCode?: string | null;
  /**
   * What a completed import wants the user to know (absent on older records): e.g. a split set missing a piece,
   * imported as separate pieces. Shown on the queue item, not only in the log.
   */
  warningMessage?: string | null;
  /** When a 'retrying' item is due again. */
  nextAttemptAt: number | null;
  /** Archive password given with the NZB (EnqueueInput.password); write-only: not in QueueItemJson. */
  password?: string;
  /** sha256 of the NZB bytes (scan skips NZBs already seen). */
  contentHash: string;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  completedAt: number | null;
  /**
   * Where a download client (Radarr/Sonarr through the SABnzbd API) finds the completed job: the folder the
   * import strategy wrote (symlinks or .strm files) or the job folder on the mount. Absent on older items.
   */
  storagePath?: string | null;
  /** Handed to the fallback SABnzbd (sabnzbd.fallback_host) because Spool cannot stream it: where, and its id there. */
  forwarded?: { host: string; nzoId: string; reason: string };
  /** Held back by the SABnzbd API's pause of this item: the runner skips it until resumed. */
  paused?: boolean;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toQueueJson(r: QueueRecord): QueueItemJson {
  return {
    id: r.id,
    nzb_path: r.nzbPath,
    target_path: r.targetPath,
    category: r.category,
    file_size: r.fileSize,
    status: r.status,
    priority: r.priority,
    retry_count: r.retryCount,
    max_retries: r.maxRetries,
    error_message: r.errorMessage,
    error_code: r.errorCode ?? null,
    warning_message: r.warningMessage ?? null,
    created_at: new Date(r.createdAt).toISOString(),
    updated_at: new Date(r.updatedAt).toISOString(),
    started_at: iso(r.startedAt),
    completed_at: iso(r.completedAt),
    next_attempt_at: iso(r.nextAttemptAt),
  };
}

export interface QueueListQuery {
  limit: number;
  offset: number;
  status?: QueueStatus;
  /** Only items updated at or after this time (epoch ms). */
  since?: number;
  search?: string;
}
