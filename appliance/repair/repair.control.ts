import type { Clock } from '../clock/clock.js';
import type { RepairEvent, RepairStepEvent } from '../events/index.js';
import type { Logger } from '../logging/logger.js';
import type { HealthStore } from '../health/health.port.js';
import type { HealthRecord } from '../health/health.types.js';
import type { RepairBrakeJson, RepairHistoryJson } from '../health/health.wire.js';
import type { BrakeSettings, RepairBrake } from './repair.brake.js';
import type { BrokenRelease, RepairHistoryEntry, RepairLedger, RepairResult } from './repair-ledger.port.js';

/** The repair history keeps this many entries; the oldest drop first. */
export const REPAIR_HISTORY_KEEP = 1000;

export interface RepairControlDeps {
  store: HealthStore;
  ledger: RepairLedger;
  brake: RepairBrake;
  clock: Clock;
  settings: () => BrakeSettings;
  /** Runs a health cycle now (held repairs whose time came are tried in it). */
  wake: () => void;
  logger: Logger;
}

/**
 * What people and the rest of Spool ask of repairs (docs/health.md): the brake's state and its release by an admin,
 * the repair history (written from the repair events of both methods, appliance/app/repair-history.ts), and whether
 * a release was found broken before (the importer asks).
 */
export class RepairControl {
  constructor(private readonly d: RepairControlDeps) {}

  brake(): RepairBrakeJson {
    const s = this.d.brake.current;
    const { percent, windowMs } = this.d.settings();
    return {
      engaged: s.engaged,
      reason: s.reason,
      changed_at: s.changedAt === null ? null : new Date(s.changedAt).toISOString(),
      released_by: s.releasedBy,
      percent,
      window_minutes: Math.round(windowMs / 60_000),
    };
  }

  /** An admin resumes repairs: the brake is released and the repairs it held are due at once. */
  async resume(by: string): Promise<RepairBrakeJson> {
    const wasEngaged = this.d.brake.current.engaged;
    await this.d.brake.release(by);
    if (wasEngaged) {
      const now = this.d.clock.now();
      // Every repair waiting (the index of back-offs): held ones, and back-offs that may as well run now.
      const held = await this.d.store.repairsDue(Number.MAX_SAFE_INTEGER);
      const due = (r: HealthRecord) => (r.repairNextAt === null ? null : { ...r, repairNextAt: now });
      await this.d.store.commit(held.map((r) => ({ op: 'update', id: r.id, change: due })));
      this.d.logger.info('repairs resumed', { by, due: held.length });
      this.d.wake();
    }
    return this.brake();
  }

  async history(limit: number, offset: number): Promise<{ items: RepairHistoryJson[]; total: number }> {
    const page = await this.d.ledger.history(limit, offset);
    return { items: page.items.map(historyJson), total: page.total };
  }

  /** A repair event of either method, as a history line: PAR2 tried, or the arr asked. */
  async record(result: RepairResult, e: RepairEvent): Promise<void> {
    const method = e.method ?? 'arr';
    await this.d.ledger.addHistory(
      {
        at: this.d.clock.now(),
        path: e.path,
        method,
        instance: e.instance ?? null,
        result,
        reason: e.reason,
        manual: e.manual,
        step: method === 'par2' ? 'par2_tried' : 'arr_asked',
      },
      REPAIR_HISTORY_KEEP,
    );
  }

  /** A later step of an arr repair (the replacement imported, the old release retired, media servers told). */
  async recordStep(e: RepairStepEvent): Promise<void> {
    await this.d.ledger.addHistory(
      {
        at: this.d.clock.now(),
        path: e.path,
        method: 'arr',
        instance: e.instance,
        result: e.ok ? 'done' : 'failed',
        reason: e.detail,
        manual: false,
        step: e.step,
      },
      REPAIR_HISTORY_KEEP,
    );
  }

  /** A release a verdict found broken, by its fingerprint (appliance/layout/fingerprint.ts). */
  brokenRelease(fingerprint: string): Promise<BrokenRelease | undefined> {
    return this.d.ledger.broken(fingerprint);
  }
}

function historyJson(e: RepairHistoryEntry): RepairHistoryJson {
  return {
    id: e.id,
    at: new Date(e.at).toISOString(),
    file_path: e.path,
    method: e.method,
    instance: e.instance,
    result: e.result,
    reason: e.reason,
    manual: e.manual,
    step: e.step ?? (e.method === 'par2' ? 'par2_tried' : 'arr_asked'),
  };
}
