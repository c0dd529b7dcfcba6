export { openStore, type Store, type OpenStoreOptions, type DbOptions, type Database, type Key } from './store.js';
export { migrate, schemaVersion, type Migration, type MigrationResult } from './migrations.js';
