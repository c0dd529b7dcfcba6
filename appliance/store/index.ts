export {
  openStore,
  storeDataFile,
  type Store,
  type OpenStoreOptions,
  type DbOptions,
  type Database,
  type Key,
} from './store.js';
export {
  migrate,
  schemaVersion,
  type Migration,
  type WholeMigration,
  type BatchedMigration,
  type MigrationResult,
} from './migrations.js';
export {
  forgetSharedStructures,
  reconcileSharedStructures,
  sharedStructures,
  SHARED_STRUCTURES_KEY,
} from './shared-structures.js';
export {
  pgSchemasOf,
  type StorageDomain,
  type LmdbOpening,
  type PgOpening,
  type CopyOpening,
  type DataFolder,
  type PortsOf,
} from './storage-domain.js';
