import type { DiagnosticFinding } from './diagnostics.wire.js';
import { bytesInWords, finding } from './finding.js';

/** What the storage checks read of a folder: its owner, and its filesystem (from statfs(2)). */
export interface FolderFacts {
  path: string;
  /** null: the folder cannot be read (missing, or no permission). */
  owner: { uid: number; gid: number } | null;
  /** Whether this process may create files in it. */
  writable: boolean;
  /** statfs: the filesystem's magic number, free bytes for this user, total bytes; null when statfs failed. */
  fs: { type: number; freeBytes: number; totalBytes: number } | null;
}

/** Who Spool should run as: PUID/PGID in the container (docs/deployment.md), else this process's own ids. */
export interface RunAs {
  uid: number;
  gid: number;
  /** Where the ids came from, for the message: `PUID/PGID` or `this process`. */
  source: string;
}

/** Below this, writes (LMDB growth, patches, sidecars) soon fail: error. */
export const FREE_ERROR_BYTES = 512 * 1024 ** 2;
/** Below this, or below FREE_WARN_PERCENT of the disk: warning. */
export const FREE_WARN_BYTES = 2 * 1024 ** 3;
export const FREE_WARN_PERCENT = 5;

/** /config (the data dir) owned by PUID:PGID and writable by Spool. */
export function ownershipFinding(dataDir: FolderFacts, runAs: RunAs): DiagnosticFinding {
  const fix =
    `On the host, give the folder bound to /config to ${runAs.uid}:${runAs.gid}: chown -R ${runAs.uid}:${runAs.gid} ` +
    `<host folder>, or set PUID/PGID to the ids that own it (docs/deployment.md).`;
  if (!dataDir.owner)
    return finding('config_owner', 'storage', 'error', `The data dir ${dataDir.path} cannot be read.`, fix);
  const { uid, gid } = dataDir.owner;
  if (!dataDir.writable)
    return finding(
      'config_owner',
      'storage',
      'error',
      `The data dir ${dataDir.path} belongs to ${uid}:${gid} and Spool (${runAs.source} ${runAs.uid}:${runAs.gid}) cannot write in it.`,
      fix,
    );
  if (uid !== runAs.uid || gid !== runAs.gid)
    return finding(
      'config_owner',
      'storage',
      'warning',
      `The data dir ${dataDir.path} belongs to ${uid}:${gid}, not to ${runAs.source} ${runAs.uid}:${runAs.gid}: ` +
        'files Spool creates there get a different owner than the folder, and a restart as that user may fail to write.',
      fix,
    );
  return finding('config_owner', 'storage', 'info', `The data dir ${dataDir.path} belongs to ${uid}:${gid}.`);
}

/** Free space on the filesystem holding `what` (the data dir, the patch store). */
export function freeSpaceFinding(what: string, folder: FolderFacts): DiagnosticFinding {
  const label = `${what} (${folder.path})`;
  if (!folder.fs) return finding('free_space', 'storage', 'warning', `The free space of ${label} cannot be read.`);
  const { freeBytes, totalBytes } = folder.fs;
  const percent = totalBytes > 0 ? (freeBytes / totalBytes) * 100 : 100;
  const said = `${bytesInWords(freeBytes)} free of ${bytesInWords(totalBytes)} on the disk of ${label}`;
  const fix =
    'Free space on that disk, or move the data dir to a larger one; the metadata store and PAR2 patches grow with the library.';
  if (freeBytes < FREE_ERROR_BYTES) return finding('free_space', 'storage', 'error', `Only ${said}.`, fix);
  if (freeBytes < FREE_WARN_BYTES || percent < FREE_WARN_PERCENT)
    return finding('free_space', 'storage', 'warning', `Only ${said}.`, fix);
  return finding('free_space', 'storage', 'info', `${said}.`);
}

/** statfs(2) magic numbers of network filesystems (linux/magic.h, fs/smb/client/cifsglob.h). */
export const NETWORK_FILESYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x6969, 'NFS'],
  [0x517b, 'SMB'],
  [0xff534d42, 'CIFS'],
  [0xfe534d42, 'SMB2'],
  [0x01021997, '9P'],
  [0x00c36400, 'Ceph'],
  [0x5346414f, 'AFS'],
  [0x0bd00bd0, 'Lustre'],
  [0x01161970, 'GFS2'],
  [0x65735546, 'FUSE (sshfs, rclone or similar)'],
]);

/** LMDB on a network filesystem: its memory map and locks are not safe there (docs/diagnostics.md). */
export function networkFsFinding(dataDir: FolderFacts): DiagnosticFinding | null {
  const name = dataDir.fs ? NETWORK_FILESYSTEMS.get(dataDir.fs.type) : undefined;
  if (!name) return null;
  return finding(
    'data_dir_network',
    'storage',
    'error',
    `The data dir ${dataDir.path} is on a network filesystem (${name}). LMDB, the metadata store, memory-maps its ` +
      'file and relies on local file locks: over a network filesystem it can corrupt the store or serve stale pages.',
    'Keep /config on a local disk of the host (a local folder or volume); put only media on network shares. To run ' +
      'several nodes, use PostgreSQL (metadata.database_url) instead of sharing one LMDB.',
  );
}
