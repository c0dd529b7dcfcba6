import { QuotaMeter } from '../providers/quota-meter.js';
import type { DownloadTotals } from '../sabnzbd/index.js';
import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';
import type { PoolCapability } from './pool.js';

/**
 * Quotas and expiry (docs/nntp.md "Quotas and expiry"): the meter counts each provider's bytes in its period from
 * the download totals (every node's) and this node's pool, tells 80/95/100% and the expiry on the bus (notify
 * turns them into notices), and pauses the provider in this node's pool at 100% until the period resets. Every node
 * runs one (each pauses its own pool); the notices are claimed in storage, so each goes out once.
 */
export function createQuota(core: AppCore, pooled: PoolCapability, totals: DownloadTotals): Built<QuotaMeter> {
  const { config, clock, events, stores } = core;
  const meter = new QuotaMeter({
    settings: () => config.get().providers,
    sample: () => totals.sample(),
    days: () => stores.downloadTotals.all(),
    store: stores.quotaState,
    pause: (id, until) => void pooled.pool.pauseForQuota(id, until),
    events,
    clock,
    logger: core.logger.child('quota'),
  });
  void meter.start();
  const off = pooled.onCommandDone((done) => meter.command(done.providerId, done.bytes ?? 0));
  // A quota raised, lowered or removed, or a new expiry date: evaluated at once.
  const offConfig = events.on('config.changed', () => void meter.evaluate());
  return built(meter, off, offConfig, () => meter.close());
}
