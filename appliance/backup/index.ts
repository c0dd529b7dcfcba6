export { createBackup, type BackupSource } from './backup.service.js';
export { restoreBackup, verifiedArchive, type RestoreTarget } from './restore.service.js';
export { RestoreRefused, type BackupManifest } from './manifest.js';
export { checkLmdbReadable, snapshotStoreAt } from './lmdb.store.js';
