import { AppError } from '../errors/app-error.js';
import type { HealthRecord } from './health.types.js';
import type { HealthStatus } from './health.wire.js';

/** A check's verdict as written, handed to the part that acts on it. */
export interface CheckedVerdict {
  /** When the verdict was written (ms). */
  at: number;
  /** Anything but healthy (the repair brake counts these in its window). */
  bad: boolean;
  /** The record as written; undefined when the file left the tree meanwhile. */
  record: HealthRecord | undefined;
  /** The status the record had settled on before this check. */
  previous: HealthStatus;
  /** The checked layout's fingerprint (appliance/layout/fingerprint.ts): a corrupted release is remembered by it. */
  fingerprint: string;
}

/**
 * What health hands to the part that acts on its verdicts (appliance/repair implements it: the repair brake, PAR2,
 * the arr; docs/health.md "Check, decide, act"). Health checks and decides; it knows nothing of how a file is
 * repaired, and works without it (NO_ACTIONS: the benches).
 */
export interface VerdictActions {
  /** Read before the worker's first cycle (the repair brake's kept state: engaged before a restart, it holds after). */
  load(): Promise<void>;
  /** After every verdict of a check. */
  verdict(v: CheckedVerdict): Promise<void>;
  /** Each worker cycle: repairs whose back-off is over. */
  runDue(): Promise<void>;
  /** POST /api/health/{id}/repair: a person asks for a repair now. */
  repairNow(id: number, resetCount: boolean): Promise<HealthRecord>;
  /** Why repairs are held now (the repair brake), or null: the health summary shows it. */
  heldReason(): string | null;
}

/** Health with nothing acting on its verdicts. */
export const NO_ACTIONS: VerdictActions = {
  load: async () => undefined,
  verdict: async () => undefined,
  runDue: async () => undefined,
  repairNow: async () => {
    throw new AppError('NOT_FOUND', 'No repair is wired to health');
  },
  heldReason: () => null,
};
