import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../appliance/clock/manual-clock.js';
import { memoryLogger } from '../../../appliance/logging/logger.js';
import { PgFitStore } from '../../../appliance/providers/fit-pg.store.js';
import { FitTally } from '../../../appliance/providers/fit-tally.js';
import { noCounts } from '../../../appliance/providers/fit.port.js';
import { LmdbFitStore } from '../../../appliance/providers/fit.store.js';
import { copyProvidersToPg } from '../../../appliance/providers/providers.copy.js';
import { PROVIDERS_PG_MIGRATIONS } from '../../../appliance/providers/providers-pg.migrations.js';
import { withLmdbAndPg, withTwoNodes } from '../../support/postgres/nodes.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { waitUntil } from '../../support/wait.js';

// The fit report's counts and the seconds watched on PostgreSQL: each node adds its own, every node shows the sum
// (the sampler runs on the leader, the watched seconds come from every node's streams); `spool migrate` copies the
// LMDB records and reads them back.
let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

const schemas = { providers: PROVIDERS_PG_MIGRATIONS };

test('two nodes add their own fit counts and watched seconds; both show the sums', async () => {
  await withTwoNodes(server, schemas, async (a, b) => {
    const clock = new ManualClock(Date.parse('2026-11-28T12:00:00Z'));
    const stores = [await PgFitStore.open(a, memoryLogger()), await PgFitStore.open(b, memoryLogger())];
    const [ta, tb] = stores.map((store) => new FitTally({ store, clock }));
    try {
      ta!.count('trial', '1-3y', 'filled');
      ta!.count('trial', '1-3y', 'errors');
      tb!.count('trial', '1-3y', 'unfilled');
      ta!.watch(1800);
      tb!.watch(900.4);
      await Promise.all([ta!.flush(), tb!.flush()]);
      const cell = () => ta!.samples().find((r) => r.band === '1-3y');
      // another node's notification reaches this one: the store re-reads on it
      await waitUntil('a hears b', () => cell()?.unfilled === 1 && ta!.watched()[0]?.seconds === 2700, { everyMs: 25 });
      assert.deepEqual(cell(), {
        day: '2026-11-28',
        candidate: 'trial',
        band: '1-3y',
        ...noCounts(),
        filled: 1,
        unfilled: 1,
        errors: 1,
      });
      await Promise.all([ta!.flush(), tb!.flush()]); // nothing new: nothing added twice
      const { rows } = await a.query('SELECT filled::int, unfilled::int, errors::int FROM provider_fit');
      assert.deepEqual(rows, [{ filled: 1, unfilled: 1, errors: 1 }]);
      const watched = await a.query('SELECT day, seconds::int FROM provider_watched');
      assert.deepEqual(watched.rows, [{ day: '2026-11-28', seconds: 2700 }]);
    } finally {
      for (const s of stores) s.close();
    }
  });
});

test('spool migrate copies the fit counts and the seconds watched and reads them back', async () => {
  await withLmdbAndPg(server, schemas, async (store, db) => {
    const lmdb = new LmdbFitStore(store);
    await lmdb.addSamples({
      day: '2026-11-27',
      candidate: 'trial',
      band: '0-30d',
      ...noCounts(),
      filled: 4,
      current_had: 2,
    });
    await lmdb.addWatched({ day: '2026-11-27', seconds: 3600 });
    const reports = await copyProvidersToPg(store, db, () => undefined);
    assert.deepEqual(reports, [{ scope: 'providers', records: 2 }]);
    const pg = await PgFitStore.open(db, memoryLogger());
    pg.close();
    assert.deepEqual([...pg.samples()], [...lmdb.samples()]);
    assert.deepEqual([...pg.watched()], [...lmdb.watched()]);
  });
});
