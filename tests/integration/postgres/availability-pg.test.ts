import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../appliance/clock/manual-clock.js';
import { memoryLogger } from '../../../appliance/logging/logger.js';
import { PgAvailabilityStore } from '../../../appliance/providers/availability-pg.store.js';
import { ProviderAvailability } from '../../../appliance/providers/availability.js';
import { LmdbAvailabilityStore } from '../../../appliance/providers/availability.store.js';
import { copyProvidersToPg } from '../../../appliance/providers/providers.copy.js';
import { PROVIDERS_PG_MIGRATIONS } from '../../../appliance/providers/providers-pg.migrations.js';
import { withLmdbAndPg, withTwoNodes } from '../../support/postgres/nodes.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { waitUntil } from '../../support/wait.js';

// Availability counts on PostgreSQL: each node adds what its own pool saw, every node shows the sum; `spool
// migrate` copies the LMDB counts over and reads them back.
let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

const schemas = { providers: PROVIDERS_PG_MIGRATIONS };

const until = (what: () => boolean, label: string) => waitUntil(label, what, { everyMs: 25 });

test('two nodes each add their own evidence; both show the sum, flushed once', async () => {
  await withTwoNodes(server, schemas, async (a, b) => {
    const clock = new ManualClock(Date.parse('2026-11-28T12:00:00Z'));
    const stores = [
      await PgAvailabilityStore.open(a, memoryLogger()),
      await PgAvailabilityStore.open(b, memoryLogger()),
    ];
    const [na, nb] = stores.map((store) => new ProviderAvailability({ store, clock }));
    try {
      const posted = clock.now() - 86_400_000;
      na!.command({ providerId: 'p', outcome: 'ok', posted });
      nb!.command({ providerId: 'p', outcome: 'missing', posted });
      nb!.command({ providerId: 'p', outcome: 'error', posted });
      await Promise.all([na!.flush(), nb!.flush()]);
      const cell = () => na!.view()[0]?.windows['7']['0-30d'];
      await until(() => cell()?.missing === 1, 'a hears b');
      assert.deepEqual(cell(), { had: 1, missing: 1, share: 0.5 });
      await Promise.all([na!.flush(), nb!.flush()]); // nothing new: nothing added twice
      const { rows } = await a.query('SELECT had::int, missing::int FROM provider_availability');
      assert.deepEqual(rows, [{ had: 1, missing: 1 }]);
    } finally {
      for (const s of stores) s.close();
    }
  });
});

test('spool migrate copies the LMDB counts and reads them back', async () => {
  await withLmdbAndPg(server, schemas, async (store, db) => {
    const lmdb = new LmdbAvailabilityStore(store);
    await lmdb.add({ day: '2026-11-27', provider: 'p', band: '1-3y', had: 5, missing: 2 });
    await lmdb.add({ day: '2026-11-28', provider: 'q', band: 'unknown', had: 1, missing: 0 });
    const reports = await copyProvidersToPg(store, db, () => undefined);
    assert.deepEqual(reports, [{ scope: 'providers', records: 2 }]);
    const pg = await PgAvailabilityStore.open(db, memoryLogger());
    pg.close();
    assert.deepEqual([...pg.all()], [...lmdb.all()]);
  });
});
