/**
 * The manifest: the archive's last entry (`manifest.json`), written only after every other entry, naming the
 * format, the Spool version that wrote it, when, the store kind and each entry's size and sha256.
 */
export const MANIFEST_NAME = 'manifest.json';
export const BACKUP_FORMAT = 1;

/** What the archive's store is: an LMDB environment (`db/data.mdb`) or a PostgreSQL dump (`db/postgres.dump`). */
export type BackupStoreKind = 'lmdb' | 'postgres';
const STORE_KINDS: readonly BackupStoreKind[] = ['lmdb', 'postgres'];

export interface ManifestEntry {
  name: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: number;
  spoolVersion: string;
  created: string;
  store: BackupStoreKind;
  entries: ManifestEntry[];
}

/** A restore that must not go ahead; the message says why, and nothing was changed. */
export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

/** Parses and checks the manifest's shape and version against the running Spool's version. */
export function parseManifest(data: Buffer, runningVersion: string): BackupManifest {
  let m: BackupManifest;
  try {
    m = JSON.parse(data.toString('utf8')) as BackupManifest;
  } catch {
    throw new RestoreRefused('the archive is damaged: its manifest is not readable JSON');
  }
  if (typeof m !== 'object' || m === null || !Array.isArray(m.entries))
    throw new RestoreRefused('the archive is damaged: its manifest has no entry list');
  if (m.format !== BACKUP_FORMAT)
    throw new RestoreRefused(`the archive has format ${String(m.format)}; this Spool reads format ${BACKUP_FORMAT}`);
  if (!STORE_KINDS.includes(m.store))
    throw new RestoreRefused(`the archive holds a ${String(m.store)} store; Spool restores lmdb and postgres`);
  if (compareVersions(String(m.spoolVersion), runningVersion) > 0)
    throw new RestoreRefused(`the archive was written by Spool ${m.spoolVersion}, newer than this ${runningVersion}`);
  return m;
}

/** Compares dotted numeric versions (a pre-release tag is ignored): <0, 0 or >0. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split('-')[0]!
      .split('.')
      .map((p) => Number(p) || 0);
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
