import { RestoreRefused, type BackupManifest } from './manifest.js';

/** The archive entries of each copy of the store an archive may carry. */
export const LMDB_ENTRY = 'db/data.mdb';
export const DUMP_ENTRY = 'db/postgres.dump';

/**
 * Which copy of the store a restore takes (docs/backups.md "Which copy"): `lmdb`, the LMDB environment (an LMDB
 * archive, or the backend-neutral copy a PostgreSQL archive carries), swapped in on LMDB and copied in on PostgreSQL
 * as `spool migrate` copies; or `dump`, the PostgreSQL dump, restored with pg_restore (PostgreSQL installs only, and
 * only where pg_restore is installed). `why` is what the log says.
 */
export interface StoreCopyChoice {
  copy: 'lmdb' | 'dump';
  why: string;
}

export function hasEntry(manifest: BackupManifest, name: string): boolean {
  return manifest.entries.some((e) => e.name === name);
}

/** Chooses, or refuses with why: nothing in the archive that this install can take. */
export function chooseStoreCopy(
  manifest: BackupManifest,
  into: 'lmdb' | 'postgres',
  pgRestoreInstalled: () => boolean,
): StoreCopyChoice {
  const [lmdb, dump] = [hasEntry(manifest, LMDB_ENTRY), hasEntry(manifest, DUMP_ENTRY)];
  if (manifest.store === 'lmdb') return { copy: 'lmdb', why: 'an LMDB archive' };
  if (into === 'lmdb') {
    if (lmdb) return { copy: 'lmdb', why: "a PostgreSQL archive's backend-neutral LMDB copy" };
    throw new RestoreRefused(
      'the archive holds a PostgreSQL dump only, without the backend-neutral copy an LMDB install restores from ' +
        '(archives written before Spool carried one): restore it into a PostgreSQL install, or take a new backup ' +
        'of that install with this Spool',
    );
  }
  if (dump && pgRestoreInstalled()) return { copy: 'dump', why: 'the PostgreSQL dump, with pg_restore' };
  if (lmdb)
    return {
      copy: 'lmdb',
      why: dump
        ? "pg_restore is not installed: the archive's backend-neutral copy, through the copy spool migrate uses"
        : 'the archive has no dump (pg_dump was not installed when it was taken): its backend-neutral copy',
    };
  throw new RestoreRefused(
    'pg_restore is not installed (Debian: apt-get install postgresql-client) and the archive has no ' +
      'backend-neutral copy to restore from instead',
  );
}
