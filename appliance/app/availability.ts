import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';
import type { PoolCapability } from './pool.js';
import { ProviderAvailability } from '../providers/availability.js';

/** How often the availability counts are written to their store (and at close). */
const AVAILABILITY_FLUSH_MS = 60_000;

/**
 * Availability from real traffic (appliance/providers/availability.ts): every BODY and STAT the pool settles,
 * counted by provider and post age when it is evidence, kept in `stores.availability` (LMDB or PostgreSQL).
 */
export function createAvailability(core: AppCore, pool: PoolCapability): Built<ProviderAvailability> {
  const { stores, clock } = core;
  const logger = core.logger.child('providers');
  const availability = new ProviderAvailability({ store: stores.availability, clock });
  const flush = () =>
    availability
      .flush()
      .catch((err: Error) => logger.error('could not store provider availability', { error: err.message }));
  let cancel = clock.schedule(function tick() {
    void flush();
    cancel = clock.schedule(tick, AVAILABILITY_FLUSH_MS);
  }, AVAILABILITY_FLUSH_MS);
  const off = pool.onCommandDone((done) => availability.command(done));
  return built(availability, off, async () => {
    cancel();
    await flush();
  });
}
