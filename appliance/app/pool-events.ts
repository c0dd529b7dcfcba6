import type { Clock } from '../clock/clock.js';
import type { EventBus, SpoolEvents } from '../events/index.js';
import type { PoolMetrics } from '../nntp/pool.wire.js';

/** How often the pool's metrics are announced while someone listens. */
export const POOL_METRICS_TICK_MS = 2_000;

/**
 * Announces the pool's metrics as `pool.metrics.tick` every `everyMs`, built only while a subscriber listens (a
 * live view of the pool), so an idle appliance pays one `hasListeners` per tick. Returns the stop.
 */
export function tickPoolMetrics(
  events: EventBus<SpoolEvents>,
  pool: { metrics(): PoolMetrics },
  clock: Clock,
  everyMs = POOL_METRICS_TICK_MS,
): () => void {
  let stopped = false;
  let cancel = (): void => undefined;
  const tick = () => {
    if (stopped) return;
    if (events.hasListeners('pool.metrics.tick')) events.emit('pool.metrics.tick', pool.metrics());
    cancel = clock.schedule(tick, everyMs);
  };
  cancel = clock.schedule(tick, everyMs);
  return () => {
    stopped = true;
    cancel();
  };
}
