import { authStorage } from '../auth/auth.storage.js';
import { configStorage } from '../config/config.storage.js';
import { latencyStorage } from '../diagnostics/latency.storage.js';
import { healthStorage } from '../health/health.storage.js';
import { providersStorage } from '../providers/providers.storage.js';
import { quotaStorage } from '../providers/quota.storage.js';
import { queueStorage } from '../importer/queue.storage.js';
import { join } from 'node:path';
import type { FileFolder } from '../backup/index.js';
import { repairLedgerStorage } from '../repair/repair-ledger.storage.js';
import { repairStorage } from '../repair/repair.storage.js';
import { sabnzbdStorage } from '../sabnzbd/sabnzbd.storage.js';
import type { PortsOf } from '../store/index.js';
import { streamsStorage } from '../streams/streams.storage.js';
import { streamLinksStorage } from '../streamlinks/streamlinks.storage.js';
import { treeStorage } from '../vfs/tree.storage.js';

/**
 * Every domain that keeps something, each as its storage module (`<domain>/<name>.storage.ts`,
 * docs/architecture.md "Storage ports"), in the order they open on either backend, migrate and are copied by
 * `spool migrate`: the shared configuration first (every other store opens with the shared settings), then the
 * order LMDB has always migrated in (auth, health, tree, queue). The repair ledger comes after health: its first
 * PostgreSQL step moves the tables health's first step made. This is the one list: a new domain's storage is one
 * line here.
 */
export const STORAGE_DOMAINS = [
  configStorage,
  authStorage,
  healthStorage,
  treeStorage,
  queueStorage,
  repairStorage,
  repairLedgerStorage,
  sabnzbdStorage,
  streamsStorage,
  providersStorage,
  quotaStorage,
  streamLinksStorage,
  latencyStorage,
] as const;

/** Every port of every domain in the list, as one object: `{ users, sessions, health, tree, sidecars, ... }`. */
export type StoragePorts = PortsOf<typeof STORAGE_DOMAINS>;

/**
 * The folders under the data dir the domains keep files in beside LMDB (the PAR2 patch blobs, the sidecars), each
 * from its storage module: what a backup of an LMDB install carries and a restore puts back.
 */
export function dataFolders(dataDir: string): FileFolder[] {
  return STORAGE_DOMAINS.flatMap((d): FileFolder[] =>
    'folder' in d && d.folder ? [{ ...d.folder, dir: join(dataDir, d.folder.name) }] : [],
  );
}
