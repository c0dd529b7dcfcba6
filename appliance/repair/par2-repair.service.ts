import type { ArticleClient } from '../articles/index.js';
import type { Logger } from '../logging/logger.js';
import type { VfsNode } from '../vfs/types.js';
import { LayoutRangeReader, RepairUnreachableError } from './layout-bytes.js';
import { planSet, type RepairFiles, type SetPlan } from './set-plan.js';
import type { MemberTarget } from './volume-map.js';

export type { RepairFiles };
import { Par2Error, damagedSlices, DEFAULT_REPAIR_MEMORY, solveStreaming, type Par2Set } from './par2-solver.js';
import type { Par2FileStore, PatchStore, PatchWriter } from './repair.port.js';
import type { Par2Outcome } from './par2-outcome.js';

export interface Par2RepairSettings {
  /** health.par2_patch_max_mb in bytes; 0 turns PAR2 repair off. */
  maxPatchBytes: number;
  /** Bytes of strips the streaming solve holds at once; DEFAULT_REPAIR_MEMORY (48 MiB) when absent. */
  memoryBytes?: number;
}

export interface Par2RepairDeps {
  files: RepairFiles;
  client: ArticleClient;
  patches: PatchStore;
  par2Files: Par2FileStore;
  /** Byte ranges of a file the last health verdict found missing or damaged (empty when none or unknown). */
  knownBad(path: string): Promise<{ start: number; end: number }[]>;
  settings: () => Par2RepairSettings;
  logger: Logger;
}

/**
 * Rebuilds a file's missing bytes from its release's PAR2 recovery data (docs/health.md "PAR2 repair"): reads the
 * kept PAR2 files and the surviving slices of the recovery set through the pool on the repair lane, solves,
 * checks every rebuilt slice against the PAR2 checksums and commits the bytes to the patch store. The solve streams
 * in column strips within `memoryBytes` (docs/par2.md "Streaming repair") and its multiply-adds run in a worker
 * thread; rebuilt strips go straight to the patch store's temp blobs. One repair at a time.
 */
export class Par2RepairService {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly d: Par2RepairDeps) {}

  get enabled(): boolean {
    return this.d.settings().maxPatchBytes > 0;
  }

  /** True when committed patches cover bytes [start, end) of the file at `path`. */
  patched(path: string, start: number, end: number): boolean {
    const id = this.d.files.stat(path)?.layoutId;
    return id !== undefined && this.d.patches.covers(id, start, end);
  }

  /** Whether the release of the file at `path` left PAR2 files to repair from (none: no attempt is made). */
  async hasRecoveryData(path: string): Promise<boolean> {
    const node = this.d.files.stat(path);
    if (node?.queueItemId === undefined) return false;
    return ((await this.d.par2Files.get(node.queueItemId))?.length ?? 0) > 0;
  }

  /**
   * Repairs the file at `path`. `knownBad` names the bytes known missing (default: the last health verdict's); the
   * importer passes the articles its probe found missing (docs/import.md "Repair at import").
   */
  repair(path: string, signal: AbortSignal, knownBad?: Par2RepairDeps['knownBad']): Promise<Par2Outcome> {
    const run = this.queue.then(() => this.run(path, signal, knownBad ?? this.d.knownBad));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(path: string, signal: AbortSignal, knownBad: Par2RepairDeps['knownBad']): Promise<Par2Outcome> {
    if (!this.enabled) return { kind: 'not_coverable', reason: 'PAR2 repair is off (health.par2_patch_max_mb is 0)' };
    const reader = new LayoutRangeReader(this.d.client, signal);
    try {
      const plan = await planSet(path, { ...this.d, knownBad, reader });
      if ('reason' in plan) return { kind: 'not_coverable', reason: plan.reason };
      const outcome = await this.solveAll(plan, reader);
      this.d.logger.info('repaired from PAR2', { path, ...outcome, articles: reader.articles });
      return outcome;
    } catch (err) {
      if (err instanceof RepairUnreachableError) return { kind: 'unreachable', reason: err.message };
      if (err instanceof Par2Error) return { kind: 'not_coverable', reason: `PAR2: ${err.message}` };
      throw err;
    }
  }

  /**
   * Solves for the slices known bad, streaming the rebuilt strips into patch writers committed only once every
   * rebuilt slice passed its checksums; a slice found missing on the way joins them and the solve starts over
   * (within the recovery slices located); rebuilt slices failing their checksums (a surviving slice lied) lead to one
   * full checksum pass over the set and a last try.
   */
  private async solveAll(plan: SetPlan, reader: LayoutRangeReader): Promise<Par2Outcome> {
    const missing = new Set(plan.missing);
    let scanned = false;
    for (;;) {
      const found: number[] = [];
      const recovery = await plan.recoveryFor(missing.size);
      if (recovery.exponents.length < missing.size)
        return {
          kind: 'not_coverable',
          reason: `PAR2: cannot repair: ${missing.size} slices missing, ${recovery.exponents.length} recovery slices found, ${recovery.lost} lost with their articles`,
        };
      const sorted = [...missing].sort((a, b) => a - b);
      const target = patchTarget(plan, sorted);
      if (target.byNode.size === 0)
        return { kind: 'not_coverable', reason: "the rebuilt slices would hold none of the file's bytes" };
      const max = this.d.settings().maxPatchBytes;
      if (this.d.patches.usedBytes() + target.bytes > max)
        return {
          kind: 'not_coverable',
          reason: `the patch store is full: ${target.bytes} rebuilt bytes would pass health.par2_patch_max_mb (${Math.round(max / 2 ** 20)} MB, ${this.d.patches.usedBytes()} bytes used)`,
        };
      const writers = new Map<VfsNode, PatchWriter>();
      try {
        for (const [node, ranges] of target.byNode)
          writers.set(node, await this.d.patches.open(node.layoutId!, node.path, ranges));
        const source = {
          readInput: async (i: number, offset: number, length: number) => {
            const data = await plan.readSliceRange(i, offset, length, reader);
            if (!data) found.push(i);
            return data;
          },
          readRecovery: (e: number, offset: number, length: number) => recovery.read(e, offset, length, reader),
        };
        const sink = async (index: number, offset: number, bytes: Uint8Array) => {
          const at = target.at(index);
          if (!at) {
            for (const p of target.member?.pieces(index, offset, bytes) ?? [])
              await writers.get(target.member!.node)!.write(p.start, p.data);
            return;
          }
          const start = at.start + offset;
          const cut = bytes.subarray(0, Math.max(0, Math.min(bytes.length, at.end - start)));
          if (cut.length > 0) await writers.get(at.node)!.write(start, cut);
        };
        const memory = this.d.settings().memoryBytes ?? DEFAULT_REPAIR_MEMORY;
        await solveStreaming(recovery.set, recovery.exponents, sorted, source, sink, memory);
        for (const w of writers.values()) await w.commit();
        writers.clear();
        return {
          kind: 'repaired',
          slices: sorted.length,
          bytes: target.bytes,
          paths: [...target.byNode.keys()].map((n) => n.path),
        };
      } catch (err) {
        if (!(err instanceof Par2Error) || err.kind !== 'unrepairable') throw err;
        if (found.length > 0) {
          for (const i of found) missing.add(i);
          continue;
        }
        if (scanned || !err.message.includes('does not match')) throw err;
        scanned = true;
        for (const i of await damagedSlices(recovery.set, (i) => plan.readSlice(i, reader))) missing.add(i);
      } finally {
        for (const w of writers.values()) await w.abort();
      }
    }
  }
}

interface PatchTarget {
  /** The file ranges each tree file gets, contiguous slices merged. */
  byNode: Map<VfsNode, { start: number; end: number }[]>;
  bytes: number;
  /** Where a rebuilt slice's bytes go: the tree file and its bytes [start, end), or none (a file the tree lacks). */
  at(index: number): { node: VfsNode; start: number; end: number } | undefined;
  /** An archive member's bytes in rebuilt volume slices (repair/volume-map.ts). */
  member?: MemberTarget & { node: VfsNode };
}

/** The bytes of the files the rebuilt slices cover (each cut at its file's end), for the files the tree shows. */
function patchTarget(plan: SetPlan, sorted: readonly number[]): PatchTarget {
  const set: Par2Set = plan.set;
  const byNode = new Map<VfsNode, { start: number; end: number }[]>();
  const bySlice = new Map<number, { node: VfsNode; start: number; end: number }>();
  let bytes = 0;
  for (const index of sorted) {
    const file = set.files.find((f) => index >= f.firstSlice && index < f.firstSlice + f.sliceCount)!;
    const node = plan.nodes.get(file.fileId);
    if (!node) continue; // a file of the set the tree does not show (left out at import): nothing to serve
    const start = (index - file.firstSlice) * set.sliceSize;
    const end = Math.min(start + set.sliceSize, file.length);
    bySlice.set(index, { node, start, end });
    const ranges = byNode.get(node) ?? [];
    const last = ranges.at(-1);
    if (last && last.end === start) last.end = end;
    else ranges.push({ start, end });
    byNode.set(node, ranges);
    bytes += end - start;
  }
  const member = plan.memberTarget(sorted);
  if (member && member.ranges.length > 0) {
    byNode.set(member.node, member.ranges);
    bytes += member.bytes;
  }
  return { byNode, bytes, at: (i) => bySlice.get(i), member };
}
