import { AppError } from '../errors/app-error.js';
import type { VfsService } from './vfs.service.js';
import type { FileHealth, FileMeta, FileVerdict, VfsNode } from './types.js';

/**
 * docs/console-contract.md §3 File metadata for GET /api/files/info. A segment is `available` unless it is known missing: a health
 * check found it gone or damaged, or a read got 430 from every provider or a bad CRC (evidence on the record). What is known comes
 * from the health domain's record (`health`); the tree keeps no copy. See `fileStatus` for how the four statuses of
 * docs/console-contract.md §3 are chosen.
 */
export function fileMeta(vfs: VfsService, path: string, health: FileHealth = {}): FileMeta {
  const node = vfs.requireNode(path);
  if (node.type !== 'file') throw new AppError('NOT_A_FILE', `Not a file: ${node.path}`);
  const missing = health.unavailable ?? new Set<string>();
  const segments = node.layoutId
    ? vfs.layout(node).segments.map((s) => ({
        message_id: s.messageId,
        segment_size: s.end - s.start,
        start_offset: s.start,
        end_offset: s.end - 1,
        available: !missing.has(s.messageId),
      }))
    : [];
  const available = segments.filter((s) => s.available).length;
  return {
    file_size: node.size,
    segment_count: segments.length,
    available_segments: available,
    status: fileStatus(node, health.verdict, segments.length, available),
    encryption: node.encryption ?? 'none',
    password_protected: node.passwordProtected ?? false,
    created_at: new Date(node.createdAt).toISOString(),
    modified_at: new Date(node.modifiedAt).toISOString(),
    source_nzb_path: node.sourceNzbPath ?? null,
    segments,
  };
}

/**
 * The status a user should see, from what is known (documented in docs/streaming.md):
 * - a missing article known (failed read or check): `corrupted` when none is left, else `partial`, whatever an
 *   older check said (a read failure after a healthy check is news);
 * - the last health check's verdict (healthy, partial, corrupted) otherwise; a repair triggered since leaves the
 *   verdict that asked for it (corrupted);
 * - never checked: `healthy` when the import's availability probe passed (its sample of articles was all there)
 *   or the file is a local sidecar; `other` only when nothing is known at all.
 */
export function fileStatus(
  node: VfsNode,
  verdict: FileVerdict | undefined,
  total: number,
  available: number,
): FileMeta['status'] {
  if (available < total) return available === 0 ? 'corrupted' : 'partial';
  if (verdict) return verdict;
  return node.probe || node.sidecarId ? 'healthy' : 'other';
}
