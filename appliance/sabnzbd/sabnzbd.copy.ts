import { isDeepStrictEqual } from 'node:util';
import { createLogger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import type { CopyToPg, PgDb } from '../store/pg/index.js';
import { LmdbDownloadTotalsStore } from './download-totals.store.js';
import { SALT_KEY as LMDB_SALT_KEY } from './nzo-ids.store.js';
import type { DayKey, DayTotals } from './sabnzbd.port.js';
import { PgDownloadTotalsStore, PgNzoIdStore } from './sabnzbd-pg.store.js';

/**
 * Copies the nzo_id salt (so the arrs' download ids keep naming the same jobs) and the download totals of an LMDB
 * install into PostgreSQL (`spool migrate`), then reads both back through the PostgreSQL stores and compares.
 */
export const copySabnzbdToPg: CopyToPg = async (from: Store, to: PgDb, progress) => {
  const salt = from.meta.get(LMDB_SALT_KEY);
  const totals = sorted(new LmdbDownloadTotalsStore(from).all());
  progress(`copying the nzo_id salt and ${totals.length} provider days of download totals`);
  let records = totals.length;
  if (typeof salt === 'string' && /^[a-z0-9]+$/.test(salt)) {
    const stored = await new PgNzoIdStore(to).saltOrCreate(() => salt);
    if (stored !== salt) throw new Error(`the database already has another nzo_id salt (${stored})`);
    records++;
  }
  await to.tx(async (tx) => {
    for (const t of totals)
      await tx.query(
        `INSERT INTO sabnzbd_download_totals (day, provider_id, host, bytes, tried, failed)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [t.day, t.providerId, t.host, t.bytes, t.tried, t.failed],
      );
  });
  const reader = await PgDownloadTotalsStore.open(to, createLogger('migrate', 'error', progress));
  reader.close();
  if (!isDeepStrictEqual(sorted(reader.all()), totals))
    throw new Error('the download totals read back differ from LMDB');
  return [{ scope: 'sabnzbd', records }];
};

function sorted(rows: Iterable<DayTotals & DayKey>): (DayTotals & DayKey)[] {
  const key = (r: DayKey) => `${r.day}\0${r.providerId}`;
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : 1));
}
