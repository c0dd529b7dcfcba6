import type { ArticleClient } from '../articles/index.js';
import type { Clock } from '../clock/clock.js';
import type { EventSink, SpoolEvents } from '../events/index.js';
import type { ConfigService, HealthConfig } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import type { VfsService } from '../vfs/vfs.service.js';
import { toHealthJson } from './health.json.js';
import { healthBudget, type HealthBudget } from './health.budget.js';
import { scheduleFigures } from './health.figures.js';
import type { PassSettings } from './health.pass.js';
import { HealthRunner, type PlaybackLoad, type RunnerSettings } from './health.runner.js';
import type { AgeTiers } from './health.schedule.js';
import { HealthService } from './health.service.js';
import type { HealthStore } from './health.port.js';
import type { HealthRecord } from './health.types.js';
import type { HealthRecordJson, HealthScheduleJson } from './health.wire.js';
import { NO_ACTIONS, type VerdictActions } from './verdict-actions.port.js';

export interface HealthDeps {
  /** Where all health state lives (openHealthStore in health.store.ts; its `verdicts` also go to the VFS). */
  store: HealthStore;
  config: ConfigService;
  vfs: VfsService;
  /** The NNTP pool: checks ask on its health lane. */
  client: ArticleClient;
  clock: Clock;
  logger: Logger;
  /** What acts on the verdicts (appliance/repair createRepairs: the brake, PAR2, the arr); default nothing. */
  actions?: VerdictActions;
  /** True when a PAR2 repair's committed patches cover bytes [start, end) of the file (they read whole). */
  patched?: (path: string, start: number, end: number) => boolean;
  /** Where the runner announces checks (health.check.done). */
  events?: EventSink<SpoolEvents>;
  /** Playback's load: scheduled checks yield to it (HealthRunner); app/health-playback.ts answers it. */
  playback?: () => PlaybackLoad;
  /**
   * false: the worker (checks and repairs) waits for `worker.start()`; the app starts it only on the node that leads
   * (app/cluster/leadership.ts). Default true: it starts once start's reconcile is done.
   */
  startWorker?: boolean;
}

export interface HealthDomain {
  service: HealthService;
  runner: HealthRunner;
  /** What scheduled checks may spend (the STAT and BODY buckets). */
  budget: HealthBudget;
  clock: Clock;
  json(r: HealthRecord): HealthRecordJson;
  /** GET /api/health/schedule: share verified, backlog, budget, full-pass time. */
  schedule(): Promise<HealthScheduleJson>;
  /**
   * The tree's changes (file.added, file.removed, file.moved; wired in appliance/app/health-events.ts), applied
   * one after another in the order they came.
   */
  tree: {
    added(paths: string[]): void;
    removed(paths: string[]): void;
    moved(from: string, to: string): void;
  };
  /**
   * The worker (checks, and the repairs its cycles run): `start` resolves once it runs (after start's reconcile) unless a `stop` came
   * first; `stop` cancels its checks and keeps it from starting.
   */
  worker: { start(): Promise<void>; stop(): Promise<void> };
  close(): Promise<void>;
}

/** Every `health` config key, read live (docs/configuration.md). */
export function runnerSettings(config: ConfigService): RunnerSettings {
  const h = config.get().health;
  return {
    enabled: h.enabled,
    maxConcurrent: h.max_concurrent_jobs,
    maxRetries: h.max_retries,
    intervalMs: h.check_interval_seconds * 1000,
    checkAll: h.check_all_segments,
    samplePercent: h.segment_sample_percentage,
    tiers: ageTiers(config),
  };
}

/** The age tiers (`tier_*` keys). */
export function ageTiers(config: ConfigService): AgeTiers {
  return passSettingsOf(config.get().health).tiers;
}

/** What the full-pass estimate reads (the budgets, the tiers, the sample). */
export function passSettings(config: ConfigService): PassSettings {
  return passSettingsOf(config.get().health);
}

/** The same from a `health` section (the scale bench passes the defaults). */
export function passSettingsOf(h: HealthConfig): PassSettings {
  return {
    checkAll: h.check_all_segments,
    samplePercent: h.segment_sample_percentage,
    statBudgetPerHour: h.stat_budget_per_hour,
    bodyBudgetPerHour: h.body_budget_per_hour,
    tiers: {
      newMaxAgeDays: h.tier_new_max_age_days,
      newIntervalHours: h.tier_new_interval_hours,
      recentMaxAgeDays: h.tier_recent_max_age_days,
      recentIntervalHours: h.tier_recent_interval_hours,
      oldIntervalHours: h.tier_old_interval_hours,
    },
  };
}

/** Builds the health records and the worker (started here unless `startWorker` is false). */
export function createHealth(deps: HealthDeps): HealthDomain {
  const log = deps.logger.child('health');
  const health = () => deps.config.get().health;
  const store = deps.store;
  const actions = deps.actions ?? NO_ACTIONS;
  const budget = healthBudget(deps.clock, () => ({
    stat: health().stat_budget_per_hour,
    body: health().body_budget_per_hour,
  }));
  const runner = new HealthRunner({
    store,
    files: deps.vfs,
    client: deps.client,
    clock: deps.clock,
    settings: () => runnerSettings(deps.config),
    budget,
    playback: deps.playback,
    actions,
    logger: log,
    events: deps.events,
    patched: deps.patched,
  });
  const service = new HealthService({
    store,
    files: deps.vfs,
    runner,
    actions,
    clock: deps.clock,
    enabled: () => health().enabled,
    intervalMs: () => health().check_interval_seconds * 1000,
    logger: log,
  });
  const logged = (what: string) => (err: Error) => log.error(what, { error: err.message });
  const tree = followTree(service, deps.vfs, logged);
  // Records for files the tree had before (or missed in a crash), then the worker starts.
  // What acts on verdicts reads its kept state first (the repair brake: engaged before a restart, it holds after).
  const started = actions
    .load()
    .catch(logged('could not read the repair brake state'))
    .then(() => service.reconcile())
    .then(({ added, treeWrites }) => {
      tree.reconciled(treeWrites);
      if (added > 0) log.info('tracking files imported before health records existed', { files: added });
    })
    .catch(logged('could not reconcile health records with the tree'));
  const worker = gatedWorker(started, runner);
  if (deps.startWorker !== false) void worker.start();
  return {
    service,
    runner,
    budget,
    clock: deps.clock,
    json: (r) => toHealthJson(r, { maxRetries: health().max_retries, maxRepairRetries: health().max_repair_retries }),
    schedule: () =>
      scheduleFigures({
        store,
        settings: { ...passSettings(deps.config), windowDays: health().verified_window_days },
        now: deps.clock.now(),
        heldBy: runner.holding,
      }),
    tree: tree.handlers,
    worker,
    async close() {
      await started;
      await tree.applied();
      await runner.stop();
      const seen = tree.seen();
      if (seen !== undefined)
        await service.markInStep(seen).catch(logged('could not note health in step with the tree'));
    },
  };
}

/**
 * The tree's changes applied to the records one after another, in the order they came: a move's records must have
 * moved before the 'removed' of its source is looked at, a replaced job's old records gone before the new ones
 * land. Keeps the tree's write count as of the last change heard (undefined until start's reconcile is done): on a
 * clean stop it is noted, and a next start that finds the tree at that count skips its walk (service.reconcile).
 */
function followTree(
  service: HealthService,
  vfs: Pick<VfsService, 'treeWrites'>,
  logged: (what: string) => (err: Error) => void,
) {
  let events: Promise<void> = Promise.resolve();
  let seen: number | undefined;
  const apply = (what: string, work: () => Promise<void>) => {
    try {
      if (seen !== undefined) seen = vfs.treeWrites();
    } catch {
      seen = undefined; // the store is closing: no note, the next start walks
    }
    events = events.then(work).catch(logged(what));
  };
  return {
    handlers: {
      added: (paths: string[]) => apply('could not track new files', () => service.filesAdded(paths)),
      removed: (paths: string[]) => apply('could not drop records of removed files', () => service.filesRemoved(paths)),
      moved: (from: string, to: string) =>
        apply('could not move records of moved files', () => service.filesMoved(from, to)),
    },
    /** Start's reconcile found the tree at `treeWrites`. */
    reconciled: (treeWrites: number) => void (seen = Math.max(treeWrites, seen ?? 0)),
    /** Every change heard so far applied. */
    applied: () => events,
    seen: () => seen,
  };
}

/** The worker, started only once start's reconcile is done; a stop meanwhile (the node lost the lead) keeps it stopped. */
function gatedWorker(started: Promise<void>, runner: HealthRunner): HealthDomain['worker'] {
  let wanted = false;
  return {
    start: async () => {
      wanted = true;
      await started;
      if (wanted) runner.start();
    },
    stop: () => {
      wanted = false;
      return runner.stop();
    },
  };
}
