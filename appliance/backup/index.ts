export { createBackup, type BackupSource, type FileFolder } from './backup.service.js';
export {
  prepareRestore,
  recoverInterruptedRestore,
  restoreBackup,
  type PreparedRestore,
  type RestoreTarget,
  type SwappedRestore,
} from './restore.service.js';
export { RestoreRefused, type BackupManifest, type BackupStoreKind } from './manifest.js';
export { checkLmdbReadable, snapshotLmdb, snapshotStoreAt } from './lmdb.store.js';
export { checkDumpReadable, dumpPostgres, pgToolInstalled, restoreDump } from './pg-dump.js';
export { chooseStoreCopy, type StoreCopyChoice } from './store-copies.js';
export { backupSourceOf, checkStagedStore, restoreTargetOf, type InstallFiles } from './install.js';
export { BackupCatalog, backupName, validBackupName } from './catalog.js';
export { BackupsService, recordRestoreFailed } from './backups.service.js';
export type * from './backup.wire.js';
export { checkRestoredLibrary, RESTORE_CHECK_DEFAULTS, type LibraryFile } from './restore-check.js';
