import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { HealthStore } from '../health/health.port.js';
import type { HealthRecord } from '../health/health.types.js';
import { repairDelayMs } from '../health/health.schedule.js';
import type { Par2Outcome } from './par2-outcome.js';

/** The PAR2 repair as the loop uses it (Par2RepairService satisfies it; unit tests fake it). */
export interface Par2Repairer {
  /** health.par2_patch_max_mb above 0. */
  readonly enabled: boolean;
  /** False when the file's release kept no PAR2 files: no attempt is made, and none is recorded. */
  hasRecoveryData(path: string): Promise<boolean>;
  repair(path: string, signal: AbortSignal): Promise<Par2Outcome>;
  /** True when committed patches cover bytes [start, end) of the file. */
  patched(path: string, start: number, end: number): boolean;
}

export interface Par2StepDeps {
  store: HealthStore;
  par2: () => Par2Repairer | undefined;
  clock: Clock;
  logger: Logger;
  announce(
    name: 'repair.requested' | 'repair.done' | 'repair.failed',
    record: HealthRecord,
    manual: boolean,
    reason?: string | null,
    willRetry?: boolean,
  ): void;
}

/**
 * The PAR2 step before any arr is asked (docs/health.md "PAR2 repair"): `done` when the file now reads whole or
 * the repair waits for the providers (an outage proves nothing: no arr is asked); `fall_back` when PAR2 cannot
 * cover the damage (no PAR2 files, too little recovery data, hostile packets, the patch store full).
 */
export async function par2Step(
  d: Par2StepDeps,
  record: HealthRecord,
  manual: boolean,
): Promise<{ next: 'done' | 'fall_back'; record: HealthRecord }> {
  const par2 = d.par2();
  if (!par2?.enabled || record.missing.length === 0) return { next: 'fall_back', record };
  if (!(await par2.hasRecoveryData(record.path).catch(() => true))) return { next: 'fall_back', record };
  d.announce('repair.requested', record, manual);
  const outcome = await par2
    .repair(record.path, new AbortController().signal)
    .catch((err: unknown): Par2Outcome => ({ kind: 'not_coverable', reason: (err as Error).message }));
  d.logger.info('PAR2 repair', { path: record.path, manual, outcome: outcome.kind });
  const update = async (patch: Partial<HealthRecord>) =>
    (await d.store.update(record.id, (r) => ({ ...r, ...patch }))) ?? record;
  switch (outcome.kind) {
    case 'repaired': {
      d.announce('repair.done', record, manual);
      const updated = await update({
        status: 'healthy',
        settledStatus: 'healthy',
        verdict: 'healthy',
        missing: [],
        readEvidence: [],
        repairedFrom: 'par2',
        par2Retry: false,
        repairNextAt: null,
        lastError: null,
        errorDetails: `Repaired from PAR2: ${outcome.slices} slice(s), ${outcome.bytes} bytes rebuilt`,
      });
      return { next: 'done', record: updated };
    }
    case 'unreachable': {
      d.announce('repair.failed', record, manual, `PAR2 repair: ${outcome.reason}`, true);
      const attempts = record.repairRetryCount + 1;
      const updated = await update({
        par2Retry: true,
        repairNextAt: d.clock.now() + repairDelayMs(attempts),
        lastError: `PAR2 repair waits for the providers: ${outcome.reason}`,
      });
      return { next: 'done', record: updated };
    }
    case 'not_coverable': {
      d.announce('repair.failed', record, manual, `PAR2 repair not possible: ${outcome.reason}`, false);
      const updated = await update({ par2Retry: false, errorDetails: `PAR2 repair not possible: ${outcome.reason}` });
      return { next: 'fall_back', record: updated };
    }
  }
}
