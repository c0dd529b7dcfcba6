import { ApiError } from '../../api/client';

/**
 * The server's refusal per field, when it named fields (`VALIDATION_FAILED` details: "quota_bytes" -> its
 * message). `prefix` drops a section's path from the names ("backups." for a PATCH /config/backups).
 */
export function fieldMessages(err: unknown, prefix = ''): Record<string, string> {
  if (!(err instanceof ApiError) || !Array.isArray(err.details)) return {};
  const out: Record<string, string> = {};
  for (const d of err.details as Array<{ field?: unknown; message?: unknown }>)
    if (typeof d.field === 'string' && typeof d.message === 'string')
      out[d.field.startsWith(prefix) ? d.field.slice(prefix.length) : d.field] = d.message;
  return out;
}
