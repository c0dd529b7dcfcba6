import type { ArticleClient } from '../articles/index.js';
import type { Logger } from '../logging/logger.js';
import type { VfsNode } from '../vfs/types.js';
import { LayoutRangeReader, RepairUnreachableError } from './layout-bytes.js';
import { planSet, type RepairFiles, type SetPlan } from './set-plan.js';

export type { RepairFiles };
import { Par2Error, solve, damagedSlices, type Par2Set } from './par2-solver.js';
import type { Par2FileStore, PatchPiece, PatchStore } from './repair.port.js';

export interface Par2RepairSettings {
  /** health.par2_patch_max_mb in bytes; 0 turns PAR2 repair off. */
  maxPatchBytes: number;
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

/** What a PAR2 repair came to: `not_coverable` falls back to the arr repair; `unreachable` is retried later. */
export type Par2Outcome =
  | { kind: 'repaired'; slices: number; bytes: number; paths: string[] }
  | { kind: 'not_coverable'; reason: string }
  | { kind: 'unreachable'; reason: string };

/**
 * Rebuilds a file's missing bytes from its release's PAR2 recovery data (docs/health.md "PAR2 repair"): reads the
 * kept PAR2 files and the surviving slices of the recovery set through the pool on the repair lane, solves,
 * checks every rebuilt slice against the PAR2 checksums and commits the bytes to the patch store. One repair at a
 * time: a repair holds its missing slices and the recovery volumes it read in memory.
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

  repair(path: string, signal: AbortSignal): Promise<Par2Outcome> {
    const run = this.queue.then(() => this.run(path, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(path: string, signal: AbortSignal): Promise<Par2Outcome> {
    if (!this.enabled) return { kind: 'not_coverable', reason: 'PAR2 repair is off (health.par2_patch_max_mb is 0)' };
    const reader = new LayoutRangeReader(this.d.client, signal);
    try {
      const plan = await planSet(path, { ...this.d, reader });
      if ('reason' in plan) return { kind: 'not_coverable', reason: plan.reason };
      const rebuilt = await this.solveAll(plan, reader);
      const outcome = await this.commit(plan, rebuilt);
      this.d.logger.info('repaired from PAR2', { path, ...outcome, articles: reader.articles });
      return outcome;
    } catch (err) {
      if (err instanceof RepairUnreachableError) return { kind: 'unreachable', reason: err.message };
      if (err instanceof Par2Error) return { kind: 'not_coverable', reason: `PAR2: ${err.message}` };
      throw err;
    }
  }

  /**
   * Solves for the slices known bad; a slice found missing on the way joins them and the solve starts over (within
   * the recovery slices read); rebuilt slices failing their checksums (a surviving slice lied) lead to one full
   * checksum pass over the set and a last try.
   */
  private async solveAll(plan: SetPlan, reader: LayoutRangeReader): Promise<Map<number, Buffer>> {
    const missing = new Set(plan.missing);
    let scanned = false;
    for (;;) {
      const found: number[] = [];
      const set = await plan.recoveryFor(missing.size);
      const read = async (i: number) => {
        const data = await plan.readSlice(i, reader);
        if (!data) found.push(i);
        return data;
      };
      try {
        return await solve(
          set,
          [...missing].sort((a, b) => a - b),
          read,
        );
      } catch (err) {
        if (!(err instanceof Par2Error) || err.kind !== 'unrepairable') throw err;
        if (found.length > 0) {
          for (const i of found) missing.add(i);
          continue;
        }
        if (scanned || !err.message.includes('does not match')) throw err;
        scanned = true;
        for (const i of await damagedSlices(set, (i) => plan.readSlice(i, reader))) missing.add(i);
      }
    }
  }

  /** Rebuilt slices as patches of the files of the tree they belong to, within the store's bound. */
  private async commit(plan: SetPlan, rebuilt: Map<number, Buffer>): Promise<Par2Outcome> {
    const byFile = new Map<VfsNode, PatchPiece[]>();
    let bytes = 0;
    const set: Par2Set = plan.set;
    for (const [index, data] of [...rebuilt].sort((a, b) => a[0] - b[0])) {
      const file = set.files.find((f) => index >= f.firstSlice && index < f.firstSlice + f.sliceCount)!;
      const node = plan.nodes.get(file.fileId);
      if (!node) continue; // a file of the set the tree does not show (left out at import): nothing to serve
      const start = (index - file.firstSlice) * set.sliceSize;
      const piece = data.subarray(0, Math.min(set.sliceSize, file.length - start));
      const pieces = byFile.get(node) ?? [];
      const last = pieces.at(-1);
      if (last && last.start + last.data.length === start)
        pieces[pieces.length - 1] = { start: last.start, data: Buffer.concat([last.data, piece]) };
      else pieces.push({ start, data: piece });
      byFile.set(node, pieces);
      bytes += piece.length;
    }
    for (const [node, pieces] of plan.memberPieces(rebuilt)) {
      if (pieces.length === 0) continue;
      byFile.set(node, pieces);
      bytes += pieces.reduce((sum, p) => sum + p.data.length, 0);
    }
    if (byFile.size === 0) return { kind: 'not_coverable', reason: "the rebuilt slices hold none of the file's bytes" };
    const max = this.d.settings().maxPatchBytes;
    if (this.d.patches.usedBytes() + bytes > max)
      return {
        kind: 'not_coverable',
        reason: `the patch store is full: ${bytes} rebuilt bytes would pass health.par2_patch_max_mb (${Math.round(max / 2 ** 20)} MB, ${this.d.patches.usedBytes()} bytes used)`,
      };
    for (const [node, pieces] of byFile) await this.d.patches.add(node.layoutId!, node.path, pieces);
    return { kind: 'repaired', slices: rebuilt.size, bytes, paths: [...byFile.keys()].map((n) => n.path) };
  }
}
