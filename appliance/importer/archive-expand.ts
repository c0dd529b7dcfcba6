import type { CipherCheck, KeyRing } from '../archive/index.js';
import {
  ArchiveError,
  assembleMembers,
  formatOf,
  MAX_ARCHIVE_MEMBERS,
  parseVolumeName,
  scanRar4Volume,
  scanRar5Volume,
  scanSevenZip,
  setsByHeaders,
  tooManyMembers,
  type ArchiveFormat,
  type ArchiveMember,
  type VolumeScan,
} from '../archive/index.js';
import { layoutFromExtents, resolveLayout, type FileLayout } from '../layout/index.js';
import type { AddJobFile } from '../vfs/types.js';
import { mapLimit } from '../articles/index.js';
import { ImportError, nonRetryableError } from './import-errors.js';
import { layoutSource, type ImportArticles } from './layout-bytes.js';
import { cipherChecks } from './archive-passwords.js';

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
  /** Files exposed from archives so far in this import (every set and level): capped at MAX_ARCHIVE_MEMBERS. */
  membersSoFar?: number;
}

/** A job file and, when known, its first bytes (the first article's head from the first pass). */
export interface Candidate {
  file: AddJobFile;
  head?: Uint8Array;
}

/** A set of volumes, and their scans in set order when grouping already read them. */
interface VolumeSet {
  format: ArchiveFormat;
  volumes: Volume[];
  scans?: VolumeScan[];
}

/**
 * Replaces archive volumes by the files they store (recursively: a stored RAR inside a stored RAR resolves to the
 * innermost files). Volumes are recognised by their first bytes, grouped into sets by name or, under obfuscated
 * names, by what their headers say (archive/volume-sets.ts), and ordered by the volume numbers in their headers (by
 * name where the headers carry none). Only headers are read. Anything that cannot be streamed fails the import with
 * the archive's reason, and so do more than MAX_ARCHIVE_MEMBERS files from the archives of one import.
 */
export async function expandArchives(candidates: Candidate[], ctx: ExpandContext, depth = 0): Promise<AddJobFile[]> {
  const formats = await mapLimit(candidates, 8, async (c) => formatOf(c.head ?? (await headOf(c.file, ctx))));
  const named = new Map<string, VolumeSet>();
  const loose = new Map<ArchiveFormat, Volume[]>();
  const out: AddJobFile[] = [];
  candidates.forEach((c, i) => {
    const format = formats[i];
    if (!format) return void out.push(c.file);
    c.file.layout = resolveLayout(c.file.layout);
    const setKey = format === '7z' ? c.file.name : parseVolumeName(c.file.name)?.setKey;
    if (setKey === undefined) return void loose.set(format, [...(loose.get(format) ?? []), c.file as Volume]);
    const set = named.get(`${format}:${setKey}`) ?? { format, volumes: [] };
    set.volumes.push(c.file as Volume);
    named.set(`${format}:${setKey}`, set);
  });
  if (named.size === 0 && loose.size === 0) return out;
  if (depth >= MAX_DEPTH) throw nonRetryableError(`archives are nested more than ${MAX_DEPTH} deep (a loop?)`);
  const sets = [...named.values()];
  for (const [format, volumes] of loose) sets.push(...(await setsOfLooseVolumes(format, volumes, ctx)));
  for (const set of sets) {
    const members = await membersOf(set, ctx);
    ctx.membersSoFar = (ctx.membersSoFar ?? 0) + members.length;
    if (ctx.membersSoFar > MAX_ARCHIVE_MEMBERS)
      throw asImportFailure(tooManyMembers('the archives of this release', ctx.membersSoFar));
    const inner = await archiveErrors(() => memberFiles(members, set.volumes, ctx));
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

/** Reads one volume's headers; RAR 4 volumes named nothing useful are read to their end block (its number). */
function scanVolume(format: ArchiveFormat, v: Volume, ctx: ExpandContext, named: boolean): Promise<VolumeScan> {
  const source = layoutSource(v.layout, ctx.articles, v.name);
  return format === 'rar5'
    ? scanRar5Volume(source, v.name, ctx.keys)
    : scanRar4Volume(source, v.name, !named, ctx.keys);
}

/**
 * RAR volumes whose names say nothing: every volume's headers are read, then the volumes are split into sets by
 * what the headers say (archive number, continuation of split members), several sets in one NZB included.
 */
async function setsOfLooseVolumes(format: ArchiveFormat, volumes: Volume[], ctx: ExpandContext): Promise<VolumeSet[]> {
  if (format === '7z') return volumes.map((v) => ({ format, volumes: [v] }));
  const scans = await archiveErrors(() => mapLimit(volumes, 8, (v) => scanVolume(format, v, ctx, false)));
  return setsByHeaders(
    scans,
    volumes.map((v) => v.size),
  ).map((set) => ({ format, volumes: set.map((i) => volumes[i]!), scans: set.map((i) => scans[i]!) }));
}

async function membersOf(set: VolumeSet, ctx: ExpandContext): Promise<ArchiveMember[]> {
  const { format, volumes } = set;
  return archiveErrors(async () => {
    if (format === '7z') {
      // one joined file per archive (split .7z.001 pieces were joined by name): its header names the members
      const v = volumes[0]!;
      return await scanSevenZip(layoutSource(v.layout, ctx.articles, v.name), v.name, ctx.keys);
    }
    if (set.scans)
      return assembleMembers(
        set.scans,
        volumes.map((v) => v.name),
      );
    // RAR 4 volumes carry their number only in the end block: read it when the names cannot order them
    const named = volumes.every((v) => parseVolumeName(v.name) !== null);
    const scans = await mapLimit(volumes, 8, (v) => scanVolume(format, v, ctx, named));
    const order = volumeOrder(volumes, scans);
    return assembleMembers(
      order.map((i) => scans[i]!),
      order.map((i) => volumes[i]!.name),
    ).map((m) => ({ ...m, extents: m.extents.map((e) => ({ ...e, volume: order[e.volume]! })) }));
  });
}

/** Indexes of `volumes` in set order: header volume numbers when every volume has one, else names. */
function volumeOrder(volumes: AddJobFile[], scans: VolumeScan[]): number[] {
  const indexes = volumes.map((_, i) => i);
  const byHeader = scans.every((s) => s.volumeNumber !== null);
  const key = (i: number) =>
    byHeader ? scans[i]!.volumeNumber! : (parseVolumeName(volumes[i]!.name)?.index ?? Number.MAX_SAFE_INTEGER);
  return indexes.sort((a, b) => key(a) - key(b));
}

/**
 * The members as job files. Encrypted ones are keyed one after the other, so a password proven on one member is
 * tried first on the next; members keyed before any proof are keyed again once one exists (derived keys and read
 * articles are cached, so that costs no fetch).
 */
async function memberFiles(members: ArchiveMember[], volumes: Volume[], ctx: ExpandContext): Promise<AddJobFile[]> {
  const layoutOf = (m: ArchiveMember) =>
    layoutFromExtents(
      m.extents.map((e) => ({ layout: volumes[e.volume]!.layout, offset: e.offset, length: e.length })),
    );
  const checkOf = cipherChecks(members, layoutOf, ctx.articles);
  const files: AddJobFile[] = [];
  const early: number[] = [];
  for (const m of members) {
    if (m.encryption && !ctx.keys.hasProven) early.push(files.length);
    files.push(await memberFile(m, layoutOf(m), volumes[0]!, ctx, checkOf(m)));
  }
  if (ctx.keys.hasProven)
    for (const i of early)
      files[i] = await memberFile(members[i]!, layoutOf(members[i]!), volumes[0]!, ctx, checkOf(members[i]!));
  return files;
}

async function memberFile(
  m: ArchiveMember,
  layout: FileLayout,
  first: AddJobFile,
  ctx: ExpandContext,
  check: CipherCheck,
): Promise<AddJobFile> {
  if (m.encryption) layout.cipher = { ...(await ctx.keys.cipherFor(m.encryption, m.name, check)), plainSize: m.size };
  return {
    name: m.name,
    size: m.size,
    layout,
    sourceNzbPath: first.sourceNzbPath,
    passwordProtected: first.passwordProtected || m.encryption !== undefined,
    ...(m.encryption ? { encryption: m.encryption.scheme === 'rar3-aes128' ? 'aes-128' : 'aes-256' } : {}),
  };
}

/** Archive failures become permanent import failures carrying their code. */
async function archiveErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw err instanceof ArchiveError ? asImportFailure(err) : err;
  }
}

const asImportFailure = (err: ArchiveError) => new ImportError(err.message, false, err.code);

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
