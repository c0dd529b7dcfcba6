import { AppError } from '../http/errors.js';
import type { VfsService } from './vfs.service.js';
import type { FileMeta } from './types.js';

/**
 * Spec §3 File metadata for GET /api/files/info. `unavailable` holds message ids the health domain (or a failed
 * read) found missing; without it every segment counts as available.
 */
export function fileMeta(vfs: VfsService, path: string, unavailable: ReadonlySet<string> = new Set()): FileMeta {
  const node = vfs.requireNode(path);
  if (node.type !== 'file') throw new AppError('BAD_REQUEST', `Not a file: ${node.path}`);
  const segments = node.layoutId
    ? vfs.layout(node).segments.map((s) => ({
        message_id: s.messageId,
        segment_size: s.end - s.start,
        start_offset: s.start,
        end_offset: s.end - 1,
        available: !unavailable.has(s.messageId),
      }))
    : [];
  const available = segments.filter((s) => s.available).length;
  const health = node.health;
  const status: FileMeta['status'] =
    health === 'healthy' || health === 'partial' || health === 'corrupted' ? health : 'other';
  return {
    file_size: node.size,
    segment_count: segments.length,
    available_segments: available,
    status,
    encryption: node.encryption ?? 'none',
    password_protected: node.passwordProtected ?? false,
    created_at: new Date(node.createdAt).toISOString(),
    modified_at: new Date(node.modifiedAt).toISOString(),
    source_nzb_path: node.sourceNzbPath ?? null,
    segments,
  };
}
