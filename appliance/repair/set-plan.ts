import type { FileLayout } from '../layout/index.js';
import type { VfsNode } from '../vfs/types.js';
import type { LayoutRangeReader } from './layout-bytes.js';
import { readSet, scanRecovery, slicesOf, type Par2Set } from './par2-solver.js';
import {
  articlesUnder,
  carriedBy,
  memberTarget,
  sharesArticles,
  volumeRanges,
  type MemberTarget,
} from './volume-map.js';
import type { KeptPar2File, Par2FileStore } from './repair.port.js';

/** What one repair works on: the recovery set, the tree's files of it, the slices known bad, more volumes. */
export interface SetPlan {
  set: Par2Set;
  /** The tree's file for each file id of the recovery set it shows (matched by name, else by size). */
  nodes: Map<string, VfsNode>;
  /** Global slice indexes known bad before the solve: the health verdicts' ranges, and files the tree lacks. */
  missing: number[];
  readSlice(index: number, reader: LayoutRangeReader): Promise<Buffer | null>;
  /** When the file is an archive member of volumes of the set: its bytes the rebuilt slices `missing` hold. */
  memberTarget(missing: readonly number[]): (MemberTarget & { node: VfsNode }) | undefined;
  /** Bytes [offset, offset + length) of input slice `index`, cut at its file's end; null when unreadable. */
  readSliceRange(index: number, offset: number, length: number, reader: LayoutRangeReader): Promise<Buffer | null>;
  /**
   * At least `k` recovery slices when the kept volumes hold them, else all: the volumes beyond those read whole
   * are only located (packet headers read by range), and their slices read in strips during the solve.
   */
  recoveryFor(k: number): Promise<Recovery>;
}

/** The recovery slices a solve may use and how to read their bytes. */
export interface Recovery {
  set: Par2Set;
  exponents: number[];
  /** Recovery packets of the volumes scanned that were lost with their articles (or failed their MD5). */
  lost: number;
  read(exponent: number, offset: number, length: number, reader: LayoutRangeReader): Promise<Buffer | null>;
}

/** The part of the VFS a repair reads (VfsService satisfies it). */
export interface RepairFiles {
  stat(path: string): VfsNode | undefined;
  layout(node: VfsNode): FileLayout;
  list(path: string, opts: { showCorrupted: boolean }): VfsNode[];
}

interface PlanDeps {
  files: RepairFiles;
  par2Files: Par2FileStore;
  knownBad(path: string): Promise<{ start: number; end: number }[]>;
  reader: LayoutRangeReader;
}

/** Reads the release's PAR2 index and plans the repair of the file at `path`; a reason when PAR2 cannot help. */
export async function planSet(path: string, d: PlanDeps): Promise<SetPlan | { reason: string }> {
  const node = d.files.stat(path);
  if (!node || node.type !== 'file' || !node.layoutId) return { reason: `${path} is not an article-backed file` };
  if (node.queueItemId === undefined) return { reason: 'the file has no import record, so no PAR2 files are known' };
  const all = (await d.par2Files.get(node.queueItemId)) ?? [];
  const kept = all.filter((f) => !f.volume);
  if (kept.length === 0) return { reason: 'the release has no PAR2 files' };
  const volumes = [...kept].sort((a, b) => a.size - b.size);
  const index = await readIndex(volumes, d.reader);
  if ('reason' in index) return index;
  const { set } = index;
  const dir = path.slice(0, path.lastIndexOf('/')) || '/';
  const siblings = d.files
    .list(dir, { showCorrupted: true })
    .filter((n) => n.type === 'file' && n.layoutId && n.queueItemId === node.queueItemId);
  const nodes = matchFiles(set, siblings);
  const layouts = new Map<string, FileLayout>([...nodes].map(([id, n]) => [id, d.files.layout(n)]));
  const archive = carriedBy(
    set,
    nodes,
    all.filter((f) => f.volume),
  );
  for (const [id, v] of archive) layouts.set(id, v.layout);
  const member = d.files.layout(node);
  const inSet = [...nodes.values()].some((n) => n.path === node.path);
  if (!inSet && !sharesArticles(member, archive.values()))
    return { reason: `${node.name} is not in the release's PAR2 recovery set` };
  if (!inSet && member.cipher) return { reason: 'an encrypted archive member is not repaired from PAR2' };
  const missing = await knownMissing(set, nodes, layouts, d.knownBad);
  // a member of archive volumes: the volume slices holding its missing articles
  const ours = new Set<number>();
  const gone = inSet ? new Set<string>() : articlesUnder(member, await d.knownBad(node.path));
  for (const [id, v] of archive) {
    const f = set.files.find((x) => x.fileId === id)!;
    for (const r of volumeRanges(v.layout, gone)) for (const s of slicesOf(set, f, r.start, r.end)) ours.add(s);
  }
  for (const s of ours) missing.add(s);
  if (![...missing].some((i) => ours.has(i) || belongsTo(set, node, nodes, i)))
    return { reason: 'no missing or damaged bytes of the file are known' };
  const sliceRange = async (index: number, offset: number, length: number, reader: LayoutRangeReader) => {
    const f = set.files.find((x) => index >= x.firstSlice && index < x.firstSlice + x.sliceCount);
    const layout = f && layouts.get(f.fileId);
    if (!f || !layout) return null;
    const start = (index - f.firstSlice) * set.sliceSize + offset;
    return reader.read(layout, Math.min(start, f.length), Math.min(f.length, start + length));
  };
  return {
    set,
    nodes,
    memberTarget: (sorted) => (inSet ? undefined : { node, ...memberTarget(set, member, archive, sorted) }),
    missing: [...missing].sort((a, b) => a - b),
    readSlice: (index, reader) => sliceRange(index, 0, set.sliceSize, reader),
    readSliceRange: sliceRange,
    recoveryFor: recoveryOf(set, volumes, d.reader),
  };
}

/**
 * The recovery set from the smallest PAR2 files that read whole and parse (taken off the front of `volumes`, which
 * keeps the ones not read for the recovery slices), or the last reason none did.
 */
async function readIndex(
  volumes: KeptPar2File[],
  reader: LayoutRangeReader,
): Promise<{ set: Par2Set } | { reason: string }> {
  const read: Uint8Array[] = [];
  let lastError = 'no PAR2 file of the release could be read whole';
  while (volumes.length > 0) {
    const bytes = await readWhole(reader, volumes.shift()!);
    if (!bytes) continue;
    read.push(bytes);
    try {
      return { set: readSet(read) };
    } catch (err) {
      lastError = `PAR2: ${(err as Error).message}`;
      read.pop();
    }
  }
  return { reason: lastError };
}

/** Global slice indexes known bad: the health verdicts' ranges of the set's files, and every slice of files the tree lacks. */
async function knownMissing(
  set: Par2Set,
  nodes: Map<string, VfsNode>,
  layouts: Map<string, FileLayout>,
  knownBad: PlanDeps['knownBad'],
): Promise<Set<number>> {
  const missing = new Set<number>();
  for (const f of set.files) {
    const n = nodes.get(f.fileId);
    if (n) for (const r of await knownBad(n.path)) for (const s of slicesOf(set, f, r.start, r.end)) missing.add(s);
    else if (!layouts.has(f.fileId)) for (let s = 0; s < f.sliceCount; s++) missing.add(f.firstSlice + s);
  }
  return missing;
}

/** SetPlan.recoveryFor: the index's recovery slices, then the volumes left in `volumes` scanned as more are needed. */
function recoveryOf(set: Par2Set, volumes: KeptPar2File[], scanReader: LayoutRangeReader): SetPlan['recoveryFor'] {
  const located = new Map<number, { layout: FileLayout; dataOffset: number }>();
  let lost = 0;
  const count = () => new Set([...set.recovery.keys(), ...located.keys()]).size;
  return async (k) => {
    while (count() < k && volumes.length > 0) {
      const v = volumes.shift()!;
      const scan = await scanRecovery(scanReader, v.layout, v.size, set);
      lost += scan.lost;
      for (const r of scan.slices) if (!located.has(r.exponent)) located.set(r.exponent, { layout: v.layout, ...r });
    }
    return {
      set,
      exponents: [...new Set([...set.recovery.keys(), ...located.keys()])],
      lost,
      async read(exponent, offset, length, reader) {
        const held = set.recovery.get(exponent);
        if (held) return held.subarray(offset, offset + length);
        const at = located.get(exponent);
        if (!at) return null;
        return reader.read(at.layout, at.dataOffset + offset, at.dataOffset + offset + length);
      },
    };
  };
}

function readWhole(reader: LayoutRangeReader, file: KeptPar2File): Promise<Buffer | null> {
  return reader.read(file.layout, 0, file.size);
}

/** Files of the tree for the set's files: same name first, else the one sibling of the same size. */
function matchFiles(set: Par2Set, siblings: readonly VfsNode[]): Map<string, VfsNode> {
  const out = new Map<string, VfsNode>();
  const free = new Set(siblings);
  for (const f of set.files) {
    const base = f.name.slice(f.name.lastIndexOf('/') + 1);
    const byName = [...free].find((n) => n.name === base && n.size === f.length);
    if (byName) {
      out.set(f.fileId, byName);
      free.delete(byName);
    }
  }
  for (const f of set.files) {
    if (out.has(f.fileId)) continue;
    const bySize = [...free].filter((n) => n.size === f.length);
    if (bySize.length === 1) {
      out.set(f.fileId, bySize[0]!);
      free.delete(bySize[0]!);
    }
  }
  return out;
}

function belongsTo(set: Par2Set, node: VfsNode, nodes: Map<string, VfsNode>, index: number): boolean {
  const f = set.files.find((x) => index >= x.firstSlice && index < x.firstSlice + x.sliceCount);
  return f !== undefined && nodes.get(f.fileId)?.path === node.path;
}
