import { createHash } from 'node:crypto';
import type { FileLayout } from './layout.types.js';

/**
 * A release file's fingerprint: the SHA-256 of its articles' message-ids, sorted and deduplicated, so the same
 * file posted once hashes alike whatever order its NZB lists the articles in, and a repost (new message-ids) does
 * not. The health domain keeps the fingerprints of files a verdict found broken; the importer refuses a release
 * holding one (docs/health.md, "Broken releases").
 */
export function layoutFingerprint(layout: {
  segments: readonly Pick<FileLayout['segments'][number], 'messageId'>[];
}): string {
  return idsFingerprint(layout.segments.map((s) => s.messageId));
}

/** The same fingerprint from the message-ids alone (an NZB's, before any layout is built). */
export function idsFingerprint(messageIds: Iterable<string>): string {
  const ids = [...new Set(messageIds)].sort();
  const hash = createHash('sha256');
  for (const id of ids) hash.update(id).update('\n');
  return hash.digest('hex');
}
