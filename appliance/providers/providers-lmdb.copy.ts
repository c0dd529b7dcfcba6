import { isDeepStrictEqual } from 'node:util';
import { createLogger } from '../logging/logger.js';
import type { CopyToLmdb } from '../store/pg/index.js';
import { PgAvailabilityStore } from './availability-pg.store.js';
import { LmdbAvailabilityStore } from './availability.store.js';
import { PgFitStore } from './fit-pg.store.js';
import { LmdbFitStore } from './fit.store.js';

const order = <T>(all: Iterable<T>, key: (r: T) => string): T[] =>
  [...all].map((r) => ({ ...r })).sort((a, b) => (key(a) < key(b) ? -1 : 1));
const dayKey = (r: { day: string; provider: string; band: string }) => `${r.day}\0${r.provider}\0${r.band}`;
const fitKey = (r: { day: string; candidate: string; band: string }) => `${r.day}\0${r.candidate}\0${r.band}`;

/**
 * The availability counts, the fit sampler's counts and the seconds watched of a PostgreSQL install into an empty
 * LMDB environment (`spool migrate` into LMDB, a PostgreSQL backup's neutral copy), read back through fresh LMDB
 * stores and compared.
 */
export const copyProvidersToLmdb: CopyToLmdb = async (from, to, progress) => {
  const logger = createLogger('migrate', 'error', progress);
  const availability = await PgAvailabilityStore.open(from, logger);
  availability.close();
  const fit = await PgFitStore.open(from, logger);
  fit.close();
  const records = order(availability.all(), dayKey);
  const samples = order(fit.samples(), fitKey);
  const watched = order(fit.watched(), (w) => w.day);
  progress(
    `copying ${records.length} availability counts, ${samples.length} fit counts, ${watched.length} days watched`,
  );
  const lmdb = { availability: new LmdbAvailabilityStore(to), fit: new LmdbFitStore(to) };
  await Promise.all([
    ...records.map((r) => lmdb.availability.add(r)),
    ...samples.map((r) => lmdb.fit.addSamples(r)),
    ...watched.map((w) => lmdb.fit.addWatched(w)),
  ]);
  const back = { availability: new LmdbAvailabilityStore(to), fit: new LmdbFitStore(to) };
  if (!isDeepStrictEqual(order(back.availability.all(), dayKey), records))
    throw new Error('the availability counts read back differ from PostgreSQL');
  if (
    !isDeepStrictEqual(order(back.fit.samples(), fitKey), samples) ||
    !isDeepStrictEqual(
      order(back.fit.watched(), (w) => w.day),
      watched,
    )
  )
    throw new Error('the fit counts read back differ from PostgreSQL');
  return [{ scope: 'providers', records: records.length + samples.length + watched.length }];
};
