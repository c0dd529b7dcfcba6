import { isDeepStrictEqual } from 'node:util';
import { createLogger } from '../logging/logger.js';
import type { CopyToLmdb } from '../store/pg/index.js';
import { LmdbDownloadTotalsStore } from './download-totals.store.js';
import { SALT_KEY as LMDB_SALT_KEY } from './nzo-ids.store.js';
import type { DayKey, DayTotals } from './sabnzbd.port.js';
import { PgDownloadTotalsStore, SALT_KEY as PG_SALT_KEY } from './sabnzbd-pg.store.js';

/**
 * The nzo_id salt (the arrs' download ids keep naming the same jobs) and the download totals of a PostgreSQL install
 * into an empty LMDB environment (`spool migrate` into LMDB, a PostgreSQL backup's neutral copy), read back through
 * a fresh LMDB store and compared.
 */
export const copySabnzbdToLmdb: CopyToLmdb = async (from, to, progress) => {
  const salt = (await from.query<{ value: string }>('SELECT value FROM sabnzbd_meta WHERE key = $1', [PG_SALT_KEY]))
    .rows[0]?.value;
  const reader = await PgDownloadTotalsStore.open(from, createLogger('migrate', 'error', progress));
  reader.close();
  const totals = sorted(reader.all());
  progress(`copying the nzo_id salt and ${totals.length} provider days of download totals`);
  if (salt !== undefined) to.meta.putSync(LMDB_SALT_KEY, salt);
  const lmdb = new LmdbDownloadTotalsStore(to);
  for (const { day, providerId, ...delta } of totals) void lmdb.add({ day, providerId }, delta);
  await lmdb.flushed();
  if (!isDeepStrictEqual(sorted(new LmdbDownloadTotalsStore(to).all()), totals))
    throw new Error('the download totals read back differ from PostgreSQL');
  if (salt !== undefined && to.meta.get(LMDB_SALT_KEY) !== salt) throw new Error('the nzo_id salt read back differs');
  return [{ scope: 'sabnzbd', records: totals.length + (salt === undefined ? 0 : 1) }];
};

function sorted(rows: Iterable<DayTotals & DayKey>): (DayTotals & DayKey)[] {
  const key = (r: DayKey) => `${r.day}\0${r.providerId}`;
  return [...rows].map((r) => ({ ...r })).sort((a, b) => (key(a) < key(b) ? -1 : 1));
}
