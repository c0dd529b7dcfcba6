import type { NntpPool } from '../nntp/index.js';
import type { DownloadTotals } from '../sabnzbd/index.js';
import { FitService } from '../providers/fit.service.js';
import { FitTally } from '../providers/fit-tally.js';
import { watchedSeconds } from '../providers/watched.js';
import type { StreamRegistry } from '../streams/stream-registry.js';
import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';

/** How often the fit counts and the seconds watched are written to their store (and at close). */
const FIT_FLUSH_MS = 60_000;

/**
 * The fit report and the cost view (appliance/providers/fit.service.ts, docs/providers.md): the samplers of the
 * candidate accounts (started by the leader: app/cluster/background.ts), following the config's changes; every
 * node counts the seconds its players watched from the Streams view's ended streams.
 */
export function createFit(
  core: AppCore,
  pool: NntpPool,
  streams: StreamRegistry,
  downloadTotals: () => Pick<DownloadTotals, 'sample'> | undefined,
): Built<FitService> {
  const { stores, clock, config, events } = core;
  const logger = core.logger.child('fit');
  const tally = new FitTally({ store: stores.fit, clock });
  const fit = new FitService({
    accounts: () => config.get().providers,
    library: stores.tree,
    current: pool,
    // What the pool counted since the last minute's sample goes in first.
    totals: () => (downloadTotals()?.sample(), stores.downloadTotals.all()),
    tally,
    clock,
    logger,
  });
  const flush = () =>
    tally.flush().catch((err: Error) => logger.error('could not store the fit counts', { error: err.message }));
  let cancel = clock.schedule(function tick() {
    void flush();
    cancel = clock.schedule(tick, FIT_FLUSH_MS);
  }, FIT_FLUSH_MS);
  const offClosed = events.on('stream.closed', (e) => {
    const ended = streams.history().find((s) => s.id === e.stream_id);
    if (ended) tally.watch(watchedSeconds(ended));
  });
  const offConfig = events.on('config.changed', () => void fit.reconcile());
  return built(fit, offClosed, offConfig, async () => {
    cancel();
    await fit.stop();
    await flush();
  });
}
