import type { HealthRecord } from './health.types.js';
import type { HealthRecordJson } from './health.wire.js';

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/** A stored record as the API answers it (docs/health.md). */
export function toHealthJson(
  r: HealthRecord,
  limits: { maxRetries: number; maxRepairRetries: number },
): HealthRecordJson {
  return {
    id: r.id,
    file_path: r.path,
    source_nzb_path: r.sourceNzbPath,
    status: r.status,
    last_error: r.lastError,
    error_details: r.errorDetails,
    retry_count: r.retryCount,
    max_retries: limits.maxRetries,
    repair_retry_count: r.repairRetryCount,
    max_repair_retries: limits.maxRepairRetries,
    last_checked: iso(r.lastCheckedAt),
    created_at: new Date(r.createdAt).toISOString(),
    missing_ranges: r.missing.map((m) => ({
      message_id: m.messageId,
      start_offset: m.start,
      end_offset: m.end - 1,
      damaged: m.damaged,
    })),
    checked_segments: r.checkedSegments,
    total_segments: r.totalSegments,
    next_check: iso(r.nextCheckAt),
    repaired_from: r.repairedFrom ?? null,
  };
}
