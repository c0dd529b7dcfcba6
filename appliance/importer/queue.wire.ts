/**
 * Wire shapes of the queue and scan API (docs/console-contract.md: Queue item, Queue stats, Scan status), as the
 * server sends them and the console reads them. A wire file: types and constants only, no imports from Node or
 * packages (the console bundles it; `npm run lint` checks).
 */

import type { QueueStatus } from '../events/statuses.wire.js';

/** A queue item's statuses (shared with the events that carry them). */
export { QUEUE_STATUSES, type QueueStatus } from '../events/statuses.wire.js';

/** SABnzbd's priorities as Spool keeps them: -1 low, 0 normal, 1 high, 2 force (goes first). */
export type QueuePriority = -1 | 0 | 1 | 2;

/** One queue item: the fields of docs/console-contract.md §3 (snake_case, ISO times) plus a few extra ones the console may use. */
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
  /** Machine-readable failure reason (e.g. ARCHIVE_COMPRESSED); null when none. */
  error_code: string | null;
  /** A completed import's warnings (QueueRecord.warningMessage, e.g. a split set missing a piece); null when none. */
  warning_message: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  next_attempt_at: string | null;
}

/** GET /api/queue/stats. total_queued counts every item (the dashboard derives pending from it). */
export interface QueueStats {
  total_queued: number;
  total_processing: number;
  total_completed: number;
  total_failed: number;
  /** Not in the contract's list, given so the console need not derive them. */
  total_pending: number;
  total_retrying: number;
}

/** DELETE /api/queue/bulk. */
export interface QueueBulkDeleteResult {
  deleted_count: number;
  skipped_ids: number[];
  message: string;
}

/** POST /api/queue/bulk/restart. */
export interface QueueBulkRestartResult {
  restarted_count: number;
  skipped_ids: number[];
  message: string;
}

/** DELETE /api/queue/completed and /api/queue/failed. */
export interface QueueClearResult {
  deleted_count: number;
  message: string;
}

/** POST /api/import/scan, GET /api/import/scan/status, DELETE /api/import/scan. */
export interface ScanStatus {
  status: 'idle' | 'scanning' | 'canceling';
  path: string;
  files_found: number;
  files_added: number;
  /** NZBs not added because the same bytes were queued before (still queued, or queued and cleared since). */
  files_skipped: number;
  current_file: string;
  last_error: string | null;
}
