import { createDecipheriv } from 'node:crypto';
import { idsFingerprint, layoutFingerprint, resolveLayout, type FileLayout } from '../layout/index.js';
import type { AddJobFile } from '../vfs/types.js';
import { containerMismatch, isCheckedMedia, SIGNATURE_BYTES } from './container-signature.js';
import { ImportError } from './import-errors.js';
import { layoutSource, type ImportArticles } from './layout-bytes.js';

/** A release a health verdict found broken (the health domain's ledger answers; docs/health.md). */
export interface KnownBrokenRelease {
  path: string;
  at: number;
  reason: string;
}

export type BrokenReleaseLookup = (fingerprint: string) => Promise<KnownBrokenRelease | undefined>;

/**
 * The last checks before a job is written (docs/import.md, "Checks before the write"): no exposed file is one a
 * health verdict already found broken (the same release grabbed again fails in milliseconds instead of looping
 * through the arr), and (import.verify_media_headers) every exposed media file's first bytes are the container its
 * name says. Either failure is
 * permanent, with a code and the reason, so SABnzbd's history says Failed and the arr blocklists the release.
 */
export async function checkJobFiles(
  files: readonly AddJobFile[],
  articles: ImportArticles,
  checks: { brokenRelease?: BrokenReleaseLookup; headers: boolean },
): Promise<void> {
  const { brokenRelease } = checks;
  if (brokenRelease)
    for (const f of files) await refuseKnownBroken(layoutFingerprint(resolveLayout(f.layout)), brokenRelease);
  if (!checks.headers) return;
  for (const f of files) {
    if (!isCheckedMedia(f.name) || f.size === 0) continue;
    const head = await firstBytes(resolveLayout(f.layout), articles, f.name);
    const mismatch = containerMismatch(f.name, head);
    if (mismatch) throw new ImportError(`${f.name}: ${mismatch}`, false, 'CONTENT_MISMATCH');
  }
}

/**
 * Fails the import when a posted file's message-ids (`ids`, from the NZB) are a release a verdict found broken:
 * called before the probe, so the same release grabbed again fails in milliseconds.
 */
export async function refuseKnownBrokenIds(ids: Iterable<string>, lookup: BrokenReleaseLookup): Promise<void> {
  await refuseKnownBroken(idsFingerprint(ids), lookup);
}

async function refuseKnownBroken(fingerprint: string, lookup: BrokenReleaseLookup): Promise<void> {
  const known = await lookup(fingerprint);
  if (!known) return;
  const when = new Date(known.at).toISOString();
  throw new ImportError(
    `This release was found broken before (${known.path}, ${when}: ${known.reason}); refusing it again`,
    false,
    'KNOWN_BROKEN_RELEASE',
  );
}

/** The file's first bytes, decrypted when it is a member of an encrypted archive. */
async function firstBytes(layout: FileLayout, articles: ImportArticles, name: string): Promise<Buffer> {
  const cipher = layout.cipher;
  const wanted = Math.min(SIGNATURE_BYTES, cipher ? cipher.plainSize : layout.size);
  if (!cipher) return layoutSource(layout, articles, name).read(0, wanted);
  // Whole AES blocks from the start: the first block's IV is the member's.
  const length = Math.min(layout.size, Math.ceil(wanted / 16) * 16);
  const data = await layoutSource(layout, articles, name).read(0, length);
  const decipher = createDecipheriv(cipher.algorithm, Buffer.from(cipher.key, 'hex'), Buffer.from(cipher.iv, 'hex'));
  decipher.setAutoPadding(false);
  return Buffer.concat([decipher.update(data), decipher.final()]).subarray(0, wanted);
}
