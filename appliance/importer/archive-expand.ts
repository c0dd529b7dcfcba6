import { createDecipheriv } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { KeyRing, MemberCipher, MemberEncryption } from '../archive/index.js';
import {
  ArchiveError,
  assembleMembers,
  formatOf,
  parseVolumeName,
  scanRar4Volume,
  scanRar5Volume,
  scanSevenZip,
  type ArchiveFormat,
  type ArchiveMember,
  type VolumeScan,
} from '../archive/index.js';
import { layoutFromExtents, resolveLayout, type FileLayout } from '../layout/index.js';
import type { AddJobFile } from '../vfs/types.js';
import { mapLimit } from '../articles/index.js';
import { ImportError, nonRetryableError } from './import-errors.js';
import { layoutSource, type ImportArticles } from './layout-bytes.js';

/** An archive volume: its layout is read (headers), so it is built, not deferred. */
type Volume = AddJobFile & { layout: FileLayout };

/** A stored archive inside a stored archive is resolved; deeper than this is a loop or a trap, not a release. */
const MAX_DEPTH = 4;

export interface ExpandContext {
  articles: ImportArticles;
  /** Passwords to try on encrypted members, in order (queue item, NZB meta). */
  keys: KeyRing;
  /** import.show_archive_volumes: keep the volumes in the job beside what they hold. */
  showVolumes: boolean;
}

/** A job file and, when known, its first bytes (the first article's head from the first pass). */
export interface Candidate {
  file: AddJobFile;
  head?: Uint8Array;
}

/**
 * Replaces archive volumes by the files they store (recursively: a stored RAR inside a stored RAR resolves to the
 * innermost files). Volumes are recognised by their first bytes, grouped into sets by name (or, under obfuscated
 * names, by format), and ordered by the volume numbers in their headers (by name where the headers carry none).
 * Only headers are read. Anything that cannot be streamed fails the import with the archive's reason.
 */
export async function expandArchives(candidates: Candidate[], ctx: ExpandContext, depth = 0): Promise<AddJobFile[]> {
  const formats = await mapLimit(candidates, 8, async (c) => formatOf(c.head ?? (await headOf(c.file, ctx))));
  const sets = new Map<string, { format: ArchiveFormat; volumes: Volume[] }>();
  const out: AddJobFile[] = [];
  candidates.forEach((c, i) => {
    const format = formats[i];
    if (!format) return void out.push(c.file);
    const key = `${format}:${parseVolumeName(c.file.name)?.setKey ?? (format === '7z' ? c.file.name : '?obfuscated')}`;
    const set = sets.get(key) ?? { format, volumes: [] };
    c.file.layout = resolveLayout(c.file.layout);
    set.volumes.push(c.file as Volume);
    sets.set(key, set);
  });
  if (sets.size === 0) return out;
  if (depth >= MAX_DEPTH) throw nonRetryableError(`archives are nested more than ${MAX_DEPTH} deep (a loop?)`);
  for (const set of sets.values()) {
    const members = await membersOf(set.format, set.volumes, ctx);
    // RAR5 carries a password check value; 7z and RAR 3 do not: a member's CRC decides
    const verify = set.format === 'rar5' ? undefined : crcVerifier(members, set.volumes, ctx);
    const inner = await archiveErrors(() => Promise.all(members.map((m) => memberFile(m, set.volumes, ctx, verify))));
    if (ctx.showVolumes && depth === 0) out.push(...set.volumes);
    out.push(
      ...(await expandArchives(
        inner.map((file) => ({ file })),
        ctx,
        depth + 1,
      )),
    );
  }
  return dedupe(out);
}

async function headOf(file: AddJobFile, ctx: ExpandContext): Promise<Buffer> {
  return file.size < 8 ? Buffer.alloc(0) : layoutSource(resolveLayout(file.layout), ctx.articles, file.name).read(0, 8);
}

async function membersOf(format: ArchiveFormat, volumes: Volume[], ctx: ExpandContext): Promise<ArchiveMember[]> {
  try {
    if (format === '7z') {
      // one joined file per archive (split .7z.001 pieces were joined by name): its header names the members
      const v = volumes[0]!;
      return await scanSevenZip(layoutSource(v.layout, ctx.articles, v.name), v.name);
    }
    // RAR 4 volumes carry their number only in the end block: read it when the names cannot order them
    const named = volumes.every((v) => parseVolumeName(v.name) !== null);
    const scans = await mapLimit(volumes, 8, (v) => {
      const source = layoutSource(v.layout, ctx.articles, v.name);
      return format === 'rar5' ? scanRar5Volume(source, v.name, ctx.keys) : scanRar4Volume(source, v.name, !named);
    });
    const order = volumeOrder(volumes, scans);
    return assembleMembers(
      order.map((i) => scans[i]!),
      order.map((i) => volumes[i]!.name),
    ).map((m) => ({ ...m, extents: m.extents.map((e) => ({ ...e, volume: order[e.volume]! })) }));
  } catch (err) {
    if (err instanceof ArchiveError) throw new ImportError(err.message, false, err.code);
    throw err;
  }
}

/** Indexes of `volumes` in set order: header volume numbers when every volume has one, else names. */
function volumeOrder(volumes: AddJobFile[], scans: VolumeScan[]): number[] {
  const indexes = volumes.map((_, i) => i);
  const byHeader = scans.every((s) => s.volumeNumber !== null);
  const key = (i: number) =>
    byHeader ? scans[i]!.volumeNumber! : (parseVolumeName(volumes[i]!.name)?.index ?? Number.MAX_SAFE_INTEGER);
  return indexes.sort((a, b) => key(a) - key(b));
}

async function memberFile(
  m: ArchiveMember,
  volumes: Volume[],
  ctx: ExpandContext,
  verify?: (cipher: MemberCipher, enc: MemberEncryption) => Promise<boolean>,
): Promise<Volume> {
  const first = volumes[0]!;
  const layout = layoutFromExtents(
    m.extents.map((e) => ({ layout: volumes[e.volume]!.layout, offset: e.offset, length: e.length })),
  );
  if (m.encryption) layout.cipher = { ...(await ctx.keys.cipherFor(m.encryption, m.name, verify)), plainSize: m.size };
  return {
    name: m.name,
    size: m.size,
    layout,
    sourceNzbPath: first.sourceNzbPath,
    passwordProtected: first.passwordProtected || m.encryption !== undefined,
    ...(m.encryption ? { encryption: 'aes-256' } : {}),
  };
}

/** Largest member whose bytes are read at import to prove a password where the archive has no check value. */
const MAX_VERIFY_BYTES = 4 * 1024 * 1024;

/**
 * For 7z and RAR 3: a check that a cipher opens the set, by decrypting its smallest member that has a CRC (up to 4 MiB) and
 * comparing. Undefined when nothing can prove it (then the first password is taken: docs/archives.md).
 */
function crcVerifier(
  members: ArchiveMember[],
  volumes: Volume[],
  ctx: ExpandContext,
): ((cipher: MemberCipher, enc: MemberEncryption) => Promise<boolean>) | undefined {
  const probe = members
    .filter((m) => m.encryption && m.crc !== undefined && m.size > 0 && m.size <= MAX_VERIFY_BYTES)
    .sort((a, b) => a.size - b.size)[0];
  if (!probe) return undefined;
  return async (cipher, enc) => {
    // the probe proves only a key derived like its own (same salt and rounds); 7-Zip uses one for the whole archive
    if (enc.salt !== probe.encryption!.salt || enc.kdfLog2 !== probe.encryption!.kdfLog2) return true;
    const key = Buffer.from(cipher.key, 'hex');
    const file = await memberFile({ ...probe, encryption: undefined }, volumes, ctx);
    const stored = await layoutSource(file.layout, ctx.articles, probe.name).read(0, file.layout.size);
    // the key is the set's; the IV is the probe's own (each 7z folder has its own; RAR 3 derives it with the key)
    const iv = Buffer.from(probe.encryption!.iv || cipher.iv, 'hex');
    const c = createDecipheriv(cipher.algorithm, key, iv);
    const plain = c.setAutoPadding(false).update(stored).subarray(0, probe.size);
    return crc32(plain) === probe.crc;
  };
}

/** Archive failures become permanent import failures carrying their code. */
async function archiveErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ArchiveError) throw new ImportError(err.message, false, err.code);
    throw err;
  }
}

/** Two files of one name (a member named like a volume, two sets holding the same name) get ` (2)`. */
function dedupe(files: AddJobFile[]): AddJobFile[] {
  const seen = new Set<string>();
  for (const f of files) {
    let name = f.name;
    for (let n = 2; seen.has(name.toLowerCase()); n++) {
      const dot = f.name.lastIndexOf('.');
      name = dot > 0 ? `${f.name.slice(0, dot)} (${n})${f.name.slice(dot)}` : `${f.name} (${n})`;
    }
    seen.add(name.toLowerCase());
    f.name = name;
  }
  return files;
}
