/** Queue shapes (spec §3 Queue item, §4 statuses). Times are stored as epoch ms and shown as ISO strings. */

export const QUEUE_STATUSES = ['pending', 'processing', 'completed', 'failed', 'retrying'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/** SABnzbd's priorities as Spool keeps them: -1 low, 0 normal, 1 high, 2 force (goes first). */
export type QueuePriority = -1 | 0 | 1 | 2;

/** One NZB waiting for, going through, or done with import, as stored in LMDB. */
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
  /** When a 'retrying' item is due again. */
  nextAttemptAt: number | null;
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

/** The JSON form of spec §3 (snake_case, ISO times) plus a few extra fields the console may use. */
export interface QueueItemJson {
  id: number;
  nzb_path: string;
  target_path: string | null;
  category: string | null;
  file_size: number;
  status: QueueStatus;
  priority: QueuePriority;
  retry_count: number;
  max_retries: number;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  next_attempt_at: string | null;
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
    created_at: new Date(r.createdAt).toISOString(),
    updated_at: new Date(r.updatedAt).toISOString(),
    started_at: iso(r.startedAt),
    completed_at: iso(r.completedAt),
    next_attempt_at: iso(r.nextAttemptAt),
  };
}

/** Spec §3 Queue stats: total_queued counts every item (the dashboard derives pending from it). */
export interface QueueStats {
  total_queued: number;
  total_processing: number;
  total_completed: number;
  total_failed: number;
  /** Not in the spec's list, given so the console need not derive them. */
  total_pending: number;
  total_retrying: number;
}

export interface QueueListQuery {
  limit: number;
  offset: number;
  status?: QueueStatus;
  /** Only items updated at or after this time (epoch ms). */
  since?: number;
  search?: string;
}
