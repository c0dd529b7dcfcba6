import type { ArrClient } from '../arrs/arr.client.js';
import { ArrError } from '../arrs/arr.errors.js';
import type { QualityModel } from '../arrs/arr-v3.types.js';
import type { AwaitedReplacement } from '../health/health.types.js';
import type { FileOwner } from './arr-file-owner.js';

export type { AwaitedReplacement };

/** What the arr did with the kept file since it was asked. */
export type ReplacementState =
  /** Nothing yet: the old file record is still there. */
  | { state: 'waiting' }
  /** The arr imported a replacement: the new download's id and where the arr put the file. */
  | { state: 'imported'; downloadId: string; arrPath: string | null }
  /** The old record is gone with no import of another download (the item was deleted in the arr). */
  | { state: 'gone' };

/** The revision a same-quality release beats: version 0 (a proper or repack, or any v1 release, is higher). */
export function lowered(q: QualityModel): QualityModel {
  return { quality: q.quality, revision: { version: 0, real: 0, isRepack: false } };
}

/**
 * Lowers the file's revision and marks the broken grab failed: the arr blocklists the release and, through its
 * "Redownload Failed", searches again; a same-quality release then counts as a revision upgrade, which its import
 * replaces the file with. Answers the quality the record had. Throws an ArrError when the arr refuses the edit
 * (an arr without the bulk file editor: the caller falls back to delete-and-search).
 */
export async function askForUpgrade(
  client: ArrClient,
  owner: FileOwner & { grabId: number },
): Promise<QualityModel | null> {
  const files =
    client.type === 'radarr' ? await client.movieFiles(owner.itemId) : await client.episodeFiles(owner.itemId);
  const quality = files.find((f) => f.id === owner.fileId)?.quality ?? null;
  if (!quality) throw new ArrError('rejected', `the arr did not say the quality of file ${owner.fileId}`, false);
  await client.setFileQuality([{ id: owner.fileId, quality: lowered(quality) }]);
  try {
    await client.markFailed(owner.grabId);
  } catch (err) {
    // nothing was blocklisted: the record gets its quality back, the repair is tried again later
    await client.setFileQuality([{ id: owner.fileId, quality }]).catch(() => undefined);
    throw err;
  }
  return quality;
}

/** Whether the broken grab was already marked failed (a repair a restart cut short after asking). */
export async function alreadyAsked(client: ArrClient, downloadId: string): Promise<boolean> {
  return (await client.failedRecords(downloadId)).length > 0;
}

/** Where the replacement stands: the kept record still there, replaced by an import of another download, or gone. */
export async function replacementState(client: ArrClient, a: AwaitedReplacement): Promise<ReplacementState> {
  const files = client.type === 'radarr' ? await client.movieFiles(a.itemId) : await client.episodeFiles(a.itemId);
  if (files.some((f) => f.id === a.fileId)) return { state: 'waiting' };
  const imports = (await client.importsOf(a.itemId)).filter(
    (r) =>
      r.downloadId &&
      r.downloadId !== a.downloadId &&
      (client.type === 'radarr' || r.episodeId === undefined || a.episodeIds.includes(r.episodeId)),
  );
  const latest = imports[0];
  if (!latest?.downloadId) return { state: 'gone' };
  const fileId = Number(latest.data?.fileId ?? latest.data?.FileId);
  const arrPath = files.find((f) => f.id === fileId)?.path ?? latest.data?.importedPath ?? null;
  return { state: 'imported', downloadId: latest.downloadId, arrPath };
}

/** Writes the quality back (the repair given up, or the arr replaced nothing). */
export async function restoreQuality(client: ArrClient, a: AwaitedReplacement): Promise<void> {
  if (a.quality) await client.setFileQuality([{ id: a.fileId, quality: a.quality }]);
}
