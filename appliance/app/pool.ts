import { systemClock } from '../clock/clock.js';
import { readProviders } from '../config/index.js';
import { NntpPool, quickAckUnavailable, type CommandDone } from '../nntp/index.js';
import type { AppCore } from './core.js';
import type { Built } from './lifetime.js';
import { tickPoolMetrics } from './pool-events.js';

/** The NNTP pool and who hears of each command it settles (the metrics, the Streams view's traffic). */
export interface PoolCapability {
  pool: NntpPool;
  /** Calls `listener` with every BODY or STAT a provider settled. Returns the unsubscribe. */
  onCommandDone(listener: (done: CommandDone) => void): () => void;
}

/**
 * The NNTP pool (docs/nntp.md) on the config's providers, following their edits. One connection per primary
 * provider stays open between plays: the first read after a quiet spell would otherwise pay TCP, TLS and AUTHINFO
 * first (docs/nntp.md, "Warm pool").
 */
export function createPool({ config, events, logger }: AppCore): Built<PoolCapability> {
  const listeners = new Set<(done: CommandDone) => void>();
  const pool = new NntpPool(readProviders(config.get().providers), {
    logger: logger.child('nntp'),
    onCommandDone: (done) => listeners.forEach((listener) => listener(done)),
    idleWarmConnections: 1,
    // The pool announces each provider going down, coming back, its cap and config changes (docs/nntp.md).
    events,
  });
  if (quickAckUnavailable)
    logger.warn('provider connections will not ACK at once: slower first bytes on some servers', {
      reason: quickAckUnavailable,
    });
  const onCommandDone = (listener: (done: CommandDone) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    serves: { pool, onCommandDone },
    stops: [
      () => pool.close(),
      events.on('config.changed', () => pool.updateProviders(readProviders(config.get().providers))),
      // A display tick on real time: a test's ManualClock moving hours ahead need not run thousands of them.
      tickPoolMetrics(events, pool, systemClock),
    ],
  };
}
