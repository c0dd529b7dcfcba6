import type { Clock } from '../clock/clock.js';
import type { ConfigService } from '../config/index.js';
import type { EventSink, SpoolEvents } from '../events/index.js';
import type { HealthStore } from '../health/health.port.js';
import type { CheckedVerdict, VerdictActions } from '../health/verdict-actions.port.js';
import type { Logger } from '../logging/logger.js';
import type { Par2Repairer } from './par2-step.js';
import type { RepairLedger } from './repair-ledger.port.js';
import { RepairBrake, type BrakeSettings } from './repair.brake.js';
import { RepairControl } from './repair.control.js';
import { RepairLoop, type FileRepairer } from './repair.loop.js';
import type { ReplacementFiles } from './replacement-watch.js';

export interface RepairsDeps {
  /** The health records the repairs update. */
  store: HealthStore;
  /** The brake's state, the repair history, the broken releases (repair-ledger.storage.ts). */
  ledger: RepairLedger;
  config: ConfigService;
  /** The file's size (the arrs confirm a match by release name with it); undefined when it left the tree. */
  sizeOf: (path: string) => number | undefined;
  /**
   * The arr's download id of a file: the nzo_id Spool's SABnzbd API answered for the queue item that wrote it
   * (docs/arrs.md, "Which arr owns a file"). Undefined when unknown.
   */
  downloadIdOf?: (path: string) => string | undefined;
  /** The arr repair (arr-repair.service.ts, or a test's); undefined: no arr is asked (NOT_FOUND). */
  arr?: () => FileRepairer | undefined;
  /** The PAR2 repair (par2-repair.service.ts), tried before any arr; undefined when not built. */
  par2?: () => Par2Repairer | undefined;
  /** Spool's side of a kept file's replacement (replacement-watch.ts): its first bytes read, the old file retired. */
  replacements?: ReplacementFiles;
  clock: Clock;
  logger: Logger;
  /** Where repairs are announced (repair.requested / done / failed / held, repair.brake.changed). */
  events?: EventSink<SpoolEvents>;
  /** Runs a health cycle now (held repairs whose time came are tried in it): the health runner's `wake`. */
  wake: () => void;
}

/** The acting part of health's check, decide, act (docs/health.md): one per app, built before health. */
export interface Repairs {
  brake: RepairBrake;
  loop: RepairLoop;
  /** The brake's state and release, the repair history, the broken releases (the console and the importer ask). */
  control: RepairControl;
  /** What health's worker hands its verdicts to (health/verdict-actions.port.ts). */
  actions: VerdictActions;
}

/** Builds the repair brake, the repair loop (PAR2 first, then the arr) and what people ask of repairs. */
export function createRepairs(deps: RepairsDeps): Repairs {
  const log = deps.logger.child('health');
  const health = () => deps.config.get().health;
  const brakeSettings = (): BrakeSettings => ({
    percent: health().repair_breaker_percent,
    windowMs: health().repair_breaker_window_minutes * 60_000,
  });
  const brake = new RepairBrake({
    ledger: deps.ledger,
    clock: deps.clock,
    settings: brakeSettings,
    logger: log.child('brake'),
    events: deps.events,
  });
  const loop = new RepairLoop({
    store: deps.store,
    sizeOf: deps.sizeOf,
    downloadIdOf: deps.downloadIdOf ?? (() => undefined),
    repairer: deps.arr ?? (() => undefined),
    clock: deps.clock,
    settings: () => ({
      // Auto repair only while monitoring is on (the console offers it only then).
      autoRepair: health().enabled && health().auto_repair_enabled,
      maxRepairRetries: health().max_repair_retries,
      delayMs: health().repair_delay_minutes * 60_000,
    }),
    brake,
    logger: log.child('repair'),
    events: deps.events,
    par2: deps.par2,
    replacements: deps.replacements,
  });
  const control = new RepairControl({
    store: deps.store,
    ledger: deps.ledger,
    brake,
    clock: deps.clock,
    settings: brakeSettings,
    wake: deps.wake,
    logger: log.child('repair'),
  });
  const verdict = async (v: CheckedVerdict) => {
    brake.record(v.at, v.bad);
    // A verdict from evidence: the same release grabbed again fails at import (docs/health.md, "Broken releases"),
    // unless its own PAR2 recovery data rebuilt it (asked first, in afterVerdict).
    const markBroken = async () => {
      const r = v.record;
      if (r?.status === 'corrupted')
        await deps.ledger
          .markBroken({ fingerprint: v.fingerprint, path: r.path, at: v.at, reason: r.lastError ?? 'corrupted' })
          .catch((err: Error) => log.error('could not remember a broken release', { error: err.message }));
    };
    if (v.record) await loop.afterVerdict(v.record, v.previous, markBroken);
    else await markBroken();
  };
  const actions: VerdictActions = {
    load: () => brake.load(),
    verdict,
    runDue: () => loop.runDue(),
    repairNow: (id, resetCount) => loop.repairNow(id, resetCount),
    heldReason: () => brake.heldReason(),
  };
  return { brake, loop, control, actions };
}
