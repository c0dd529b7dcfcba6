import { isDeepStrictEqual } from 'node:util';
import { createLogger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import type { CopyToPg, PgDb } from '../store/pg/index.js';
import { PgAvailabilityStore } from './availability-pg.store.js';
import { LmdbAvailabilityStore } from './availability.store.js';
import { PgFitStore } from './fit-pg.store.js';
import { FIT_COUNTERS } from './fit.port.js';
import { LmdbFitStore } from './fit.store.js';

const order = (r: { day: string; provider: string; band: string }) => `${r.day}\0${r.provider}\0${r.band}`;

/** Copies the availability counts of an LMDB install into PostgreSQL (`spool migrate`), reads them back, compares. */
export const copyProvidersToPg: CopyToPg = async (from: Store, to: PgDb, progress) => {
  const records = [...new LmdbAvailabilityStore(from).all()].sort((a, b) => (order(a) < order(b) ? -1 : 1));
  progress(`copying ${records.length} availability counts`);
  await to.tx(async (tx) => {
    for (const r of records)
      await tx.query(
        'INSERT INTO provider_availability (day, provider, band, had, missing) VALUES ($1, $2, $3, $4, $5)',
        [r.day, r.provider, r.band, r.had, r.missing],
      );
  });
  const reader = await PgAvailabilityStore.open(to, createLogger('migrate', 'error', progress));
  reader.close();
  if (!isDeepStrictEqual([...reader.all()], records))
    throw new Error('the availability counts read back differ from LMDB');
  const fit = await copyFit(from, to, progress);
  return [{ scope: 'providers', records: records.length + fit }];
};

const fitOrder = (r: { day: string; candidate: string; band: string }) => `${r.day}\0${r.candidate}\0${r.band}`;

/** The fit sampler's counts and the seconds watched per day; returns how many records were copied. */
async function copyFit(from: Store, to: PgDb, progress: (line: string) => void): Promise<number> {
  const lmdb = new LmdbFitStore(from);
  const samples = [...lmdb.samples()].sort((a, b) => (fitOrder(a) < fitOrder(b) ? -1 : 1));
  const watched = [...lmdb.watched()].sort((a, b) => (a.day < b.day ? -1 : 1));
  progress(`copying ${samples.length} fit counts and ${watched.length} days watched`);
  const cols = ['day', 'candidate', 'band', ...FIT_COUNTERS];
  const marks = cols.map((_, i) => `$${i + 1}`).join(', ');
  await to.tx(async (tx) => {
    for (const r of samples)
      await tx.query(`INSERT INTO provider_fit (${cols.join(', ')}) VALUES (${marks})`, [
        r.day,
        r.candidate,
        r.band,
        ...FIT_COUNTERS.map((c) => r[c]),
      ]);
    for (const w of watched)
      await tx.query('INSERT INTO provider_watched (day, seconds) VALUES ($1, $2)', [w.day, Math.round(w.seconds)]);
  });
  const reader = await PgFitStore.open(to, createLogger('migrate', 'error', progress));
  reader.close();
  const back = [...reader.samples()].sort((a, b) => (fitOrder(a) < fitOrder(b) ? -1 : 1));
  const backWatched = [...reader.watched()].sort((a, b) => (a.day < b.day ? -1 : 1));
  const roundWatched = watched.map((w) => ({ day: w.day, seconds: Math.round(w.seconds) }));
  if (!isDeepStrictEqual(back, samples) || !isDeepStrictEqual(backWatched, roundWatched))
    throw new Error('the fit counts read back differ from LMDB');
  return samples.length + watched.length;
}
