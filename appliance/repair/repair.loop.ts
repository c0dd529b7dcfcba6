import type { Clock } from '../clock/clock.js';
import { AppError } from '../errors/app-error.js';
import type { EventSink, RepairEvent, RepairMethod, SpoolEvents } from '../events/index.js';
import type { Logger } from '../logging/logger.js';
import type { HealthStore } from '../health/health.port.js';
import type { HealthRecord } from '../health/health.types.js';
import { repairDelayMs } from '../health/health.schedule.js';
import type { RepairBrake } from './repair.brake.js';
import { recentArrRepairs, repairHold } from './repair.holds.js';
import { par2Step, type Par2Repairer } from './par2-step.js';
import type { AwaitedReplacement, ReplacementState } from './arr-replacement.js';
import { followReplacement, REPLACEMENT_POLL_MS, type ReplacementFiles } from './replacement-watch.js';

/** What an arr repair came to (arr-repair.service.ts returns these). */
export type RepairOutcome =
  /**
   * `instance`: the arr instance that took it (the repair history names it). `awaiting`: the file stays while the
   * arr replaces it (docs/arrs.md "Continuity"); `note`: why the file's record was deleted instead.
   */
  | { kind: 'triggered'; instance?: string; awaiting?: AwaitedReplacement; note?: string | null }
  | { kind: 'not_found' }
  | { kind: 'retryable'; reason: string }
  | { kind: 'failed'; reason: string };

/** The arr repair: find the item owning the file, have the arr replace the release, and follow the replacement. */
export interface FileRepairer {
  repairFile(input: { path: string; downloadId?: string; size?: number }): Promise<RepairOutcome>;
  /** Where a kept file's replacement stands. */
  replacementOf?(a: AwaitedReplacement): Promise<ReplacementState>;
  /** The repair is given up: the kept record gets its quality back. */
  giveUp?(a: AwaitedReplacement): Promise<void>;
}

export interface RepairSettings {
  /** health.enabled && health.auto_repair_enabled. */
  autoRepair: boolean;
  maxRepairRetries: number;
  /** health.repair_delay_minutes in ms: how long an automatic repair waits after the verdict. */
  delayMs: number;
}

export const NOT_MANAGED = 'File not found in any arr: not managed by any configured Radarr or Sonarr instance';

export interface RepairLoopDeps {
  store: HealthStore;
  /** The file's size (the arrs confirm a match by release name with it); undefined when it left the tree. */
  sizeOf: (path: string) => number | undefined;
  /** The nzo_id Spool's SABnzbd API gave the arr for the download that brought the file (the arr's downloadId). */
  downloadIdOf: (path: string) => string | undefined;
  repairer: () => FileRepairer | undefined;
  clock: Clock;
  settings: () => RepairSettings;
  brake: RepairBrake;
  logger: Logger;
  /** Where repair.requested / repair.done / repair.failed are announced. */
  events?: EventSink<SpoolEvents>;
  /** The PAR2 repair (appliance/repair), tried before any arr (docs/health.md "PAR2 repair"). */
  par2?: () => Par2Repairer | undefined;
  /** Spool's side of a kept file's replacement; without it, a kept file is never retired (it stays). */
  replacements?: ReplacementFiles;
}

/**
 * Asks the arrs to replace corrupted files: at once after a corrupted verdict (with auto repair on), again after a
 * back-off while the arr answers "try later", at most `max_repair_retries` times. Never while the repair brake is
 * engaged, and at most FILE_REPAIR_CAP arr repairs of one file in 6 h (repair.holds.ts): a held repair asks no arr
 * anything, the file waits, and a person asking gets REPAIR_HELD.
 */
export class RepairLoop {
  /** The hold each held file was last announced with: a file held again for the same reason is not said again. */
  private readonly announcedHolds = new Map<number, string>();

  constructor(private readonly d: RepairLoopDeps) {}

  /**
   * After a verdict: PAR2 first for any missing bytes (docs/health.md "PAR2 repair"); then repair a file that just
   * turned corrupted through the arrs, when auto repair is on (after `repair_delay_minutes`, through runDue). A file
   * that was corrupted already is not asked about again on every re-check: its retries run on their own back-off
   * (runDue). `unlessPar2Repairs` runs unless PAR2 rebuilt the file.
   */
  async afterVerdict(
    record: HealthRecord,
    previous: HealthRecord['status'],
    unlessPar2Repairs: () => Promise<void> = async () => undefined,
  ): Promise<void> {
    // PAR2 first, on any verdict with missing bytes: it asks no arr and the file reads whole again.
    const step = await this.par2(record, false);
    if (step.next === 'done' && step.record.repairedFrom === 'par2') return;
    await unlessPar2Repairs();
    if (step.next === 'done') return;
    const s = this.d.settings();
    if (record.status !== 'corrupted' || previous === 'corrupted' || !s.autoRepair) return;
    // Waiting lets a wave of bad verdicts engage the brake before the first of them has the arr delete anything.
    if (s.delayMs > 0) await this.set(record.id, { repairNextAt: this.d.clock.now() + s.delayMs });
    else await this.attempt(step.record, false);
  }

  /** Back-offs that are over (the runner calls this each cycle): PAR2 repairs that met an outage, arr repairs. */
  async runDue(): Promise<void> {
    const auto = this.d.settings().autoRepair;
    if (!auto && !this.d.par2?.()?.enabled) return;
    // a repair a viewer's read (or a person) triggered goes first; then each in its place in line
    const due = await this.d.store.repairsDue(this.d.clock.now());
    const inLine = [...due.filter((r) => r.repairUrgent), ...due.filter((r) => !r.repairUrgent)];
    for (const r of inLine) {
      if (r.awaiting) {
        await this.follow(r);
        continue;
      }
      if (r.par2Retry) {
        const step = await this.par2(r, false);
        if (step.next === 'done' || r.status !== 'corrupted') continue;
        if (auto) await this.attempt(step.record, false);
      } else if (auto) await this.attempt(r, false);
    }
  }

  /** POST /api/health/{id}/repair: a person asks; NOT_FOUND when no arr manages the file. */
  async repairNow(id: number, resetCount: boolean): Promise<HealthRecord> {
    let record = await this.d.store.get(id);
    if (!record) throw new AppError('NO_SUCH_RECORD', `No health record ${id}`);
    if (resetCount) record = (await this.d.store.update(id, (r) => ({ ...r, repairRetryCount: 0 }))) ?? record;
    // a kept file whose replacement the arr was asked for: look for it now (the arr is never asked twice)
    if (record.awaiting) {
      await this.follow(record);
      return (await this.d.store.get(id)) ?? record;
    }
    const step = await this.par2(record, true);
    if (step.next === 'done') return step.record;
    return this.attempt(step.record, true);
  }

  private par2(record: HealthRecord, manual: boolean) {
    return par2Step(
      {
        store: this.d.store,
        par2: this.d.par2 ?? (() => undefined),
        clock: this.d.clock,
        logger: this.d.logger,
        announce: (name, r, m, reason = null, willRetry = false) =>
          this.announce(name, r, m, reason, willRetry, undefined, 'par2'),
      },
      record,
      manual,
    );
  }

  private async attempt(record: HealthRecord, manual: boolean): Promise<HealthRecord> {
    const now = this.d.clock.now();
    const max = this.d.settings().maxRepairRetries;
    const hold = repairHold(record, now, this.d.brake);
    if (hold) return this.hold(record, hold, manual);
    if (!manual && record.repairRetryCount >= max)
      return this.set(record.id, {
        lastError: `Automatic repair gave up after ${record.repairRetryCount} attempt(s)`,
        repairNextAt: null,
      });
    this.announcedHolds.delete(record.id);
    this.announce('repair.requested', record, manual);
    // kept before the arr is asked: a restart that cuts the call short finds the repair due again, and the arr
    // repair, asked again, sees the grab it marked failed and does not ask twice (arr-replacement.ts alreadyAsked)
    await this.set(record.id, { repairNextAt: now + REPLACEMENT_POLL_MS });
    const outcome = await this.askRepairer(record);
    this.d.logger.info('repair', { path: record.path, manual, outcome: outcome.kind });
    const attempts = record.repairRetryCount + 1;
    if (outcome.kind === 'triggered')
      this.announce('repair.done', record, manual, outcome.note ?? null, false, outcome.instance);
    else {
      const reason = outcome.kind === 'not_found' ? NOT_MANAGED : outcome.reason;
      const willRetry = outcome.kind === 'retryable' && attempts < max;
      this.announce('repair.failed', record, manual, reason, willRetry);
    }
    return this.settle(record, outcome, { manual, now, attempts, max });
  }

  /** A repair the brake or the file's own holds keep back: said once per hold, retried when it lifts. */
  private async hold(
    record: HealthRecord,
    hold: NonNullable<ReturnType<typeof repairHold>>,
    manual: boolean,
  ): Promise<HealthRecord> {
    // Said once per hold (a held file is looked at again every 15 min while the brake holds).
    if (this.announcedHolds.get(record.id) !== hold.reason) {
      if (this.announcedHolds.size >= 10_000) this.announcedHolds.clear();
      this.announcedHolds.set(record.id, hold.reason);
      this.d.logger.warn('repair held', { path: record.path, reason: hold.reason });
      this.announce('repair.held', record, manual, hold.reason);
    }
    const held = await this.set(record.id, { lastError: hold.reason, repairNextAt: hold.until });
    if (manual) throw new AppError('REPAIR_HELD', hold.reason);
    return held;
  }

  /** What the repairer (the arrs) made of the file; a throw is retryable, no repairer is not_found. */
  private async askRepairer(record: HealthRecord): Promise<RepairOutcome> {
    const repairer = this.d.repairer();
    if (!repairer) return { kind: 'not_found' };
    const downloadId = this.d.downloadIdOf(record.path);
    return repairer
      .repairFile({
        path: record.path,
        ...(downloadId ? { downloadId } : {}),
        ...sizeField(this.d.sizeOf(record.path)),
      })
      .catch((err: unknown) => ({ kind: 'retryable' as const, reason: (err as Error).message ?? String(err) }));
  }

  /** The record after `outcome`; a manual repair that did not start throws what the caller is told. */
  private async settle(
    record: HealthRecord,
    outcome: RepairOutcome,
    at: { manual: boolean; now: number; attempts: number; max: number },
  ): Promise<HealthRecord> {
    const { manual, now, attempts, max } = at;
    switch (outcome.kind) {
      case 'triggered':
        return this.set(record.id, {
          status: 'repair_triggered',
          settledStatus: 'repair_triggered',
          repairRetryCount: attempts,
          // a kept file: its replacement is looked for on the repair back-off's schedule (runDue)
          awaiting: outcome.awaiting ? { ...outcome.awaiting, since: now } : null,
          repairNextAt: outcome.awaiting ? now + REPLACEMENT_POLL_MS : null,
          nextCheckAt: null,
          lastError: null,
          arrRepairsAt: [...recentArrRepairs(record, now), now],
        });
      case 'not_found':
        await this.set(record.id, { lastError: NOT_MANAGED, repairNextAt: null });
        if (manual) throw new AppError('NOT_FOUND', NOT_MANAGED);
        return (await this.d.store.get(record.id))!;
      case 'retryable': {
        const again = attempts < max;
        const updated = await this.set(record.id, {
          repairRetryCount: attempts,
          repairNextAt: again ? now + repairDelayMs(attempts) : null,
          lastError: `Repair failed (${again ? 'will retry' : 'gave up'}): ${outcome.reason}`,
        });
        if (manual) throw new AppError('REPAIR_FAILED', `Repair failed: ${outcome.reason}`);
        return updated;
      }
      case 'failed':
        await this.set(record.id, {
          repairRetryCount: attempts,
          repairNextAt: null,
          lastError: `Repair failed: ${outcome.reason}`,
        });
        if (manual) throw new AppError('REPAIR_FAILED', `Repair failed: ${outcome.reason}`);
        return (await this.d.store.get(record.id))!;
    }
  }

  /** A kept file whose replacement the arr may have imported (replacement-watch.ts). */
  private async follow(r: HealthRecord): Promise<void> {
    const patch = await followReplacement(
      {
        repairer: this.d.repairer(),
        files: this.d.replacements,
        clock: this.d.clock,
        logger: this.d.logger,
        events: this.d.events,
        failed: (reason) => this.announce('repair.failed', r, false, reason, false, r.awaiting?.instance),
      },
      r,
    );
    if (patch) await this.set(r.id, patch);
  }

  private announce(
    name: 'repair.requested' | 'repair.done' | 'repair.failed' | 'repair.held',
    record: HealthRecord,
    manual: boolean,
    reason: string | null = null,
    willRetry = false,
    instance?: string,
    method: RepairMethod = 'arr',
  ): void {
    const event: RepairEvent = {
      record_id: record.id,
      path: record.path,
      method,
      manual,
      reason,
      will_retry: willRetry,
      ...(instance ? { instance } : {}),
    };
    this.d.events?.emit(name, event);
  }

  private async set(id: number, patch: Partial<HealthRecord>): Promise<HealthRecord> {
    const updated = await this.d.store.update(id, (r) => ({ ...r, ...patch }));
    if (!updated) throw new AppError('NO_SUCH_RECORD', `No health record ${id}`);
    return updated;
  }
}

const sizeField = (size: number | undefined) => (size === undefined ? {} : { size });
