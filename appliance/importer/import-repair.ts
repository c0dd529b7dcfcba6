import type { ProbeFinding } from '../articles/index.js';
import { describeMissing } from '../articles/index.js';
import type { FileLayout } from '../layout/index.js';
import type { Par2Outcome } from '../repair/par2-outcome.js';
import type { VfsNode } from '../vfs/types.js';
import { ImportError, nonRetryableError } from './import-errors.js';

/** Bytes [start, end) of a file. */
export interface ByteRange {
  start: number;
  end: number;
}

/** The repair domain's PAR2 repair, as the importer uses it (docs/import.md "Repair at import"). */
export interface ImportRepairer {
  /** health.par2_patch_max_mb above 0. */
  readonly enabled: boolean;
  /** Rebuilds the file's missing slices; `knownBad` names the bytes found missing so far (the solve finds the rest). */
  repair(path: string, signal: AbortSignal, knownBad: (path: string) => Promise<ByteRange[]>): Promise<Par2Outcome>;
}

/** The part of the VFS a repair at import reads and, on failure, cleans up (VfsService satisfies it). */
export interface RepairJobFiles {
  stat(path: string): VfsNode | undefined;
  layout(node: VfsNode): FileLayout;
  remove(path: string): Promise<string[]>;
}

export interface RepairJobInput {
  /** The written job: its directory and files (absolute VFS paths). */
  dir: string;
  files: readonly string[];
  /** The probe's findings: files with articles missing on every provider. */
  findings: readonly ProbeFinding[];
  /** The probe sampled (import.segment_sample_percentage below 100): said so in a failure's text. */
  sampled: boolean;
  signal: AbortSignal;
  /** Called before each file's repair (the import's progress, which keeps the stuck-import watchdog quiet). */
  onFile?(done: number, total: number): void;
}

/**
 * Repairs a written job's files the availability probe found missing articles in, one after another. Resolves when
 * every one was rebuilt and its patches are committed. PAR2 unable to cover it: the job leaves the tree and the
 * import fails for good with the probe's finding and PAR2's reason. The providers unreachable during the repair:
 * a retryable ImportError (an outage is no verdict); the re-run writes the job again and repairs again.
 */
export async function repairJob(repairer: ImportRepairer, files: RepairJobFiles, job: RepairJobInput): Promise<void> {
  const fail = async (reason: string): Promise<never> => {
    await files.remove(job.dir).catch(() => undefined);
    throw nonRetryableError(`${describeMissing(job.findings, job.sampled)} PAR2 repair not possible: ${reason}`);
  };
  const targets = job.findings.map((f) => ({ finding: f, path: job.files.find((p) => baseName(p) === f.name) }));
  for (const [i, { finding, path }] of targets.entries()) {
    if (!path) return fail(`${finding.name} is not a file of the job (it is inside an archive)`);
    job.onFile?.(i, targets.length);
    const bad = missingRanges(files, job.files, job.findings);
    const outcome = await repairer.repair(path, job.signal, async (p) => bad.get(p) ?? []);
    if (outcome.kind === 'unreachable')
      throw new ImportError(`PAR2 repair waits for the providers: ${outcome.reason}`, true);
    if (outcome.kind === 'not_coverable') return fail(outcome.reason);
  }
}

/** For each file with a finding, the decoded bytes of the first article the probe found missing. */
export function missingRanges(
  files: Pick<RepairJobFiles, 'stat' | 'layout'>,
  paths: readonly string[],
  findings: readonly ProbeFinding[],
): Map<string, ByteRange[]> {
  const out = new Map<string, ByteRange[]>();
  for (const f of findings) {
    const path = paths.find((p) => baseName(p) === f.name);
    const node = path === undefined ? undefined : files.stat(path);
    if (!path || !node || !f.firstMissing) continue;
    const ranges = files
      .layout(node)
      .segments.filter((s) => s.messageId === f.firstMissing)
      .map((s) => ({ start: s.start, end: s.end }));
    out.set(path, ranges);
  }
  return out;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
