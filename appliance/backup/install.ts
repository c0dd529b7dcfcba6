import { join } from 'node:path';
import type { BackupSource, FileFolder } from './backup.service.js';
import { checkLmdbReadable } from './lmdb.store.js';
import type { BackupManifest } from './manifest.js';
import { checkDumpReadable } from './pg-dump.js';
import type { RestoreTarget } from './restore.service.js';
import { DUMP_ENTRY, type StoreCopyChoice } from './store-copies.js';

/** Where one install keeps what a backup holds (app/ and `spool backup` fill it from the config and the storage modules). */
export interface InstallFiles {
  configPath: string;
  /** `<metadata.root_path>/db`. */
  dbDir: string;
  /** `metadata.root_path` and `metadata.database_url` as the config writes them. */
  rootSetting: string;
  databaseSetting: string;
  /** The PostgreSQL URL in use (SPOOL_DATABASE_URL wins over the setting); '' on LMDB. */
  databaseUrl: string;
  /** The folders of files beside an LMDB install (the PAR2 patch blobs, the sidecars), from the storage modules. */
  folders: FileFolder[];
}

/** What a backup of this install holds: the store's copy (`snapshot`), the config, and on LMDB the files beside it. */
export function backupSourceOf(
  files: InstallFiles,
  snapshot: BackupSource['snapshot'],
  spoolVersion: string,
): BackupSource {
  const onLmdb = !files.databaseUrl;
  const folders = onLmdb ? files.folders : [];
  return { store: onLmdb ? 'lmdb' : 'postgres', snapshot, configPath: files.configPath, folders, spoolVersion };
}

/** Where a restore puts the staged files; `loadDatabase` on a PostgreSQL install. */
export function restoreTargetOf(files: InstallFiles, loadDatabase?: RestoreTarget['loadDatabase']): RestoreTarget {
  return {
    dbDir: files.dbDir,
    local: { rootPath: files.rootSetting, databaseUrl: files.databaseSetting },
    configPath: files.configPath,
    folders: files.folders,
    ...(files.databaseUrl && loadDatabase ? { loadDatabase } : {}),
  };
}

/** Reads the staged copy the restore takes through: every LMDB record, or the dump's whole table of contents. */
export async function checkStagedStore(dir: string, _manifest: BackupManifest, choice: StoreCopyChoice): Promise<void> {
  if (choice.copy === 'lmdb') await checkLmdbReadable(join(dir, 'db'));
  else await checkDumpReadable(join(dir, DUMP_ENTRY));
}
