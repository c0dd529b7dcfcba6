import type { RepairStep } from '../health/health.wire.js';

/** The repair brake's state as kept (the repair ledger, docs/health.md "The repair brake"). */
export interface BrakeState {
  engaged: boolean;
  /** Why it engaged (the share of bad checks in the window); null while released. */
  reason: string | null;
  /** When it last engaged or was released (ms); null when it never changed. */
  changedAt: number | null;
  /** Who released it last (a user name); null while engaged or never released. */
  releasedBy: string | null;
}

export const BRAKE_RELEASED: BrakeState = { engaged: false, reason: null, changedAt: null, releasedBy: null };

/** How a repair was made: PAR2 recovery blocks in place, or the arr that replaces the release. */
export type RepairMethod = 'par2' | 'arr';

/** What came of a repair: done, failed (with the reason), or held (the brake, or the per-file cap). */
export type RepairResult = 'done' | 'failed' | 'held';

/** One line of the repair history (newest first in GET /api/health/repairs/history). */
export interface RepairHistoryEntry {
  id: number;
  at: number;
  path: string;
  method: RepairMethod;
  /** The arr instance that took the repair (arr repairs that reached one); null otherwise. */
  instance: string | null;
  result: RepairResult;
  reason: string | null;
  manual: boolean;
  /** Absent on entries kept before steps: the first step of their method. */
  step?: RepairStep;
}

/** A release a verdict from evidence found broken: its fingerprint (appliance/layout/fingerprint.ts). */
export interface BrokenRelease {
  fingerprint: string;
  /** The file the verdict was about, and when. */
  path: string;
  at: number;
  reason: string;
}

/**
 * What repair remembers: the repair brake's state, the repair history and the broken releases. Repair's own storage
 * domain (repair-ledger.storage.ts): repair-ledger.store.ts on LMDB, repair-ledger-pg.store.ts on PostgreSQL.
 */
export interface RepairLedger {
  brake(): Promise<BrakeState>;
  setBrake(state: BrakeState): Promise<void>;
  /** Adds a history entry (the oldest drop beyond `keep`); resolves to it with its id. */
  addHistory(entry: Omit<RepairHistoryEntry, 'id'>, keep: number): Promise<RepairHistoryEntry>;
  /** Newest first. */
  history(limit: number, offset: number): Promise<{ items: RepairHistoryEntry[]; total: number }>;
  markBroken(release: BrokenRelease): Promise<void>;
  broken(fingerprint: string): Promise<BrokenRelease | undefined>;
}
