import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import type { Clock } from '../clock/clock.js';
import { AppError, noSuchRecord } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import {
  SCHEDULE_PREVIEW_RUNS,
  type BackupItem,
  type BackupKind,
  type BackupList,
  type RestoreCheck,
  type RestoreReport,
  type SchedulePreview,
} from './backup.wire.js';
import type { FileFolder } from './backup.service.js';
import type { BackupCatalog } from './catalog.js';
import { backupName, type Retention } from './catalog.js';
import { RestoreRefused, type BackupManifest } from './manifest.js';
import type { PreparedRestore } from './restore.service.js';
import { CronTimer, cronProblem, nextRuns } from './schedule.js';
import { stageArchive } from './stage.js';

export interface BackupsDeps {
  catalog: BackupCatalog;
  clock: Clock;
  logger: Logger;
  spoolVersion: string;
  /** The install's folders beside the store: an uploaded archive's files must be theirs. */
  folders: readonly FileFolder[];
  /** `backups.schedule`, `backups.keep_count`, `backups.keep_days`, read at each use. */
  settings: () => { schedule: string } & Retention;
  /** Writes one archive of the running install into `file` (the store's copy taken while Spool serves). */
  write: (file: string) => Promise<BackupManifest>;
  /** Stages and checks `archive`, then writes the safety backup (restore.service.ts `prepareRestore`). */
  prepare: (archive: string, safetyFile: string) => Promise<PreparedRestore>;
  /** Stops the app, swaps the prepared restore in and starts into it (the supervisor's in-process restart). */
  restartInto: (prepared: PreparedRestore) => void;
}

const REPORT = 'last-restore.json';

/**
 * Marks the last restore's report failed, the previous state kept (its check skipped with why): a swap or new app
 * that failed (the supervisor put the previous files back), or a swap cut short and undone at the next start.
 */
export async function recordRestoreFailed(backupsDir: string, reason: string): Promise<void> {
  const file = join(backupsDir, REPORT);
  if (!existsSync(file)) return;
  const report = JSON.parse(await readFile(file, 'utf8')) as RestoreReport;
  const check = {
    ...report.check,
    state: 'skipped' as const,
    note: `the restore failed (${reason}); the previous state was kept`,
  };
  await writeFile(file, JSON.stringify({ ...report, check }, null, 2));
}

/**
 * Backups while Spool serves (docs/backups.md): taken on a cron schedule (only while this node leads) or when
 * asked, kept by count and age unless marked to keep forever, uploaded (checked whole before it is kept), and
 * restored: checked, a safety backup written, then the app restarts into it.
 */
export class BackupsService {
  private readonly timer: CronTimer;
  private busy: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: BackupsDeps) {
    this.timer = new CronTimer(
      deps.clock,
      () => deps.settings().schedule,
      () => this.scheduled(),
    );
  }

  /** The schedule, as background work of the leader (app/cluster/leadership.ts). */
  readonly work = {
    name: 'backups',
    start: () => this.timer.start(),
    stop: () => this.timer.stop(),
  };

  /** A config save changed `backups.schedule`. */
  rescheduled(): void {
    this.timer.reschedule();
  }

  async list(): Promise<BackupList> {
    const next = this.timer.next;
    return {
      items: await this.deps.catalog.list(),
      schedule: this.deps.settings().schedule,
      next_run: next === null ? null : new Date(next).toISOString(),
      last_restore: await this.lastRestore(),
    };
  }

  /**
   * When `schedule` (the saved `backups.schedule` when absent) would run next, read by croner as the timer reads it,
   * on the injected clock; a refused expression answers croner's reason and no times. Never throws on input.
   */
  preview(schedule?: string): SchedulePreview {
    const expr = schedule ?? this.deps.settings().schedule;
    const error = cronProblem(expr);
    const times = error ? [] : nextRuns(expr, this.deps.clock.now(), SCHEDULE_PREVIEW_RUNS);
    return { schedule: expr, error, next_runs: times.map((t) => new Date(t).toISOString()) };
  }

  /** Takes a backup now (one at a time: a second request waits for the first). */
  create(kind: BackupKind = 'manual'): Promise<BackupItem> {
    return this.oneAtATime(async () => {
      await this.deps.catalog.ensure();
      const name = backupName(kind, new Date(this.deps.clock.now()));
      await this.deps.write(join(this.deps.catalog.dir, name));
      this.deps.logger.info('backup written', { name });
      return this.item(name);
    });
  }

  /** The archive's path, for a download; NO_SUCH_RECORD for an unknown name. */
  pathOf(name: string): string {
    const path = this.deps.catalog.pathOf(name);
    if (!path) throw noSuchRecord(`No backup named ${name}`);
    return path;
  }

  /**
   * Keeps an uploaded archive only once it is whole and checks out (every entry's sha256, its version); anything
   * else (cut short, damaged, not an archive, over the size limit) is refused and nothing is kept.
   */
  async upload(body: Readable): Promise<BackupItem> {
    await this.deps.catalog.ensure();
    const name = backupName('uploaded', new Date(this.deps.clock.now()));
    const file = join(this.deps.catalog.dir, name);
    const check = join(this.deps.catalog.dir, `.checking-${name}`);
    try {
      await pipeline(body, createWriteStream(`${file}.partial`));
      await stageArchive(`${file}.partial`, check, this.deps.spoolVersion, this.deps.folders);
      await rename(`${file}.partial`, file);
    } catch (err) {
      await rm(`${file}.partial`, { force: true });
      if (err instanceof RestoreRefused) throw new AppError('BACKUP_REFUSED', `Upload refused: ${err.message}`);
      throw err;
    } finally {
      await rm(check, { recursive: true, force: true });
    }
    this.deps.logger.info('backup uploaded', { name });
    return this.item(name);
  }

  async setKeep(name: string, keep: boolean): Promise<BackupItem> {
    this.pathOf(name);
    await this.deps.catalog.setKeep(name, keep);
    return this.item(name);
  }

  async remove(name: string): Promise<void> {
    this.pathOf(name);
    await this.deps.catalog.remove(name);
  }

  /**
   * Restores a backup: checks it whole and writes a safety backup of the current state (a refusal changes
   * nothing), records the report, then asks for the restart that swaps it in. Answers before the restart.
   */
  restore(name: string): Promise<RestoreReport> {
    const archive = this.pathOf(name);
    return this.oneAtATime(async () => {
      const safety = join(this.deps.catalog.dir, backupName('pre-restore', new Date(this.deps.clock.now())));
      let prepared: PreparedRestore;
      try {
        prepared = await this.deps.prepare(archive, safety);
      } catch (err) {
        if (err instanceof RestoreRefused) throw new AppError('BACKUP_REFUSED', `Restore refused: ${err.message}`);
        throw err;
      }
      const report = this.reportOf(name, prepared);
      prepared.failed = (reason) => recordRestoreFailed(this.deps.catalog.dir, reason);
      await writeFile(join(this.deps.catalog.dir, REPORT), JSON.stringify(report, null, 2));
      this.deps.logger.info('restoring a backup; restarting into it', { name, safety: prepared.safetyBackup });
      this.deps.restartInto(prepared);
      return report;
    });
  }

  /** The last restore's report (its check's result once the pass after the restart has run). */
  async lastRestore(): Promise<RestoreReport | null> {
    const file = join(this.deps.catalog.dir, REPORT);
    if (!existsSync(file)) return null;
    try {
      return JSON.parse(await readFile(file, 'utf8')) as RestoreReport;
    } catch {
      return null;
    }
  }

  /** Records the check's progress or result in the last restore's report. */
  async recordCheck(check: RestoreCheck): Promise<void> {
    const report = await this.lastRestore();
    if (!report) return;
    await writeFile(join(this.deps.catalog.dir, REPORT), JSON.stringify({ ...report, check }, null, 2));
  }

  private reportOf(name: string, prepared: PreparedRestore): RestoreReport {
    return {
      archive: name,
      restored_at: new Date(this.deps.clock.now()).toISOString(),
      created: prepared.manifest.created,
      spool_version: prepared.manifest.spoolVersion,
      safety_backup: prepared.safetyBackup,
      check: {
        state: 'pending',
        files_sampled: 0,
        articles_checked: 0,
        missing_files: [],
        inconclusive: 0,
        note: null,
      },
    };
  }

  private async scheduled(): Promise<void> {
    try {
      await this.create('scheduled');
      const removed = await this.deps.catalog.prune(this.deps.settings(), this.deps.clock.now());
      if (removed.length > 0) this.deps.logger.info('old backups removed', { removed });
    } catch (err) {
      this.deps.logger.error('scheduled backup failed', { error: err instanceof Error ? err.message : String(err) });
    }
  }

  private async item(name: string): Promise<BackupItem> {
    const found = (await this.deps.catalog.list()).find((i) => i.name === name);
    if (!found) throw noSuchRecord(`No backup named ${name}`);
    return found;
  }

  private oneAtATime<T>(job: () => Promise<T>): Promise<T> {
    const run = this.busy.then(job, job);
    this.busy = run.catch(() => undefined);
    return run;
  }
}
