import { join, resolve } from 'node:path';
import {
  backupSourceOf,
  BackupCatalog,
  BackupsService,
  checkStagedStore,
  createBackup,
  prepareRestore,
  restoreTargetOf,
  snapshotLmdb,
  type InstallFiles,
  type PreparedRestore,
} from '../backup/index.js';
import type { AppCore } from './core.js';
import { gateWork, type Leadership } from './cluster/leadership.js';
import { built, type Built } from './lifetime.js';
import { databaseLoader, snapshotPostgres } from './backup-restore-pg.js';
import { checkAfterRestore, type RestoredLibrary } from './restore-check.js';
import { databaseUrlIn } from './stores.js';
import { dataFolders } from './storage-domains.js';

/**
 * Backups while Spool serves (docs/backups.md): the service behind /api/system/backups, its cron schedule run as
 * background work of the leader, and restores handed to the supervisor's restart (`restartInto`).
 */
export function createBackups(
  core: AppCore,
  leadership: Leadership,
  parts: {
    version: string;
    databaseUrl?: string;
    restartInto: (prepared: PreparedRestore) => void;
    library: RestoredLibrary;
  },
): Built<BackupsService> {
  const { config, stores, clock, logger } = core;
  const files = installFiles(core, parts.databaseUrl);
  const catalog = new BackupCatalog(join(config.dataDir, 'backups'));
  const snapshot = (scratch: string) =>
    files.databaseUrl
      ? snapshotPostgres(files.databaseUrl, scratch, logger.child('backups'))
      : snapshotLmdb(stores.local, scratch);
  const source = backupSourceOf(files, snapshot, parts.version);
  const target = restoreTargetOf(files, databaseLoader(files.databaseUrl, logger.child('backups')));
  const service = new BackupsService({
    catalog,
    clock,
    logger: logger.child('backups'),
    spoolVersion: parts.version,
    folders: files.folders,
    settings: () => {
      const { schedule, keep_count, keep_days } = config.get().backups;
      return { schedule, keepCount: keep_count, keepDays: keep_days };
    },
    write: (file) => createBackup(source, { file }),
    prepare: (archive, safetyFile) =>
      prepareRestore({
        archive,
        stagingDir: join(config.dataDir, '.restore-staging'),
        target,
        spoolVersion: parts.version,
        checkStore: checkStagedStore,
        log: (message, fields) => logger.child('backups').info(message, fields),
        safetyBackup: async () => (await createBackup(source, { file: safetyFile }), safetyFile),
      }),
    // Answer first: the restart stops this app, and the restore's own request must not hold its drain.
    restartInto: (prepared) => void setImmediate(() => parts.restartInto(prepared)),
  });
  const gate = gateWork(leadership, [service.work], logger.child('leader'));
  const off = config.on('change', (next, prev) => {
    if (next.backups.schedule !== prev.backups.schedule) service.rescheduled();
  });
  return built(service, gate.stop, off, checkAfterRestore(core, service, parts.library));
}

/** This install's files as a backup sees them (the config, the LMDB folder, the patch blobs and sidecars). */
function installFiles(core: AppCore, databaseOverride?: string): InstallFiles {
  const { config } = core;
  const settings = config.get().metadata;
  return {
    configPath: config.path,
    dbDir: resolve(core.stores.local.path),
    rootSetting: settings.root_path,
    databaseSetting: settings.database_url ?? '',
    databaseUrl: databaseUrlIn(config, databaseOverride) ?? '',
    folders: dataFolders(config.dataDir),
  };
}
