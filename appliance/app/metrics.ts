import type { Clock } from '../clock/clock.js';
import type { EventSource, SpoolEvents } from '../events/index.js';
import type { HealthStore } from '../health/index.js';
import type { ImporterDomain } from '../importer/index.js';
import { FRONTS, SpoolMetrics, type MetricsSources } from '../metrics/index.js';
import type { NntpPool } from '../nntp/index.js';
import type { ProviderAvailability } from '../providers/availability.js';
import type { QuotaMeter } from '../providers/quota-meter.js';
import type { FitService } from '../providers/fit.service.js';
import type { CostViewResponse } from '../providers/fit.wire.js';

const EMPTY_COST: CostViewResponse = {
  days: 0,
  hours_watched: 0,
  providers: [],
  total: { cost: null, bytes: 0, cost_per_gb: null, cost_per_hour_watched: null },
};
import type { StreamRegistry } from '../streams/stream-registry.js';
import type { Leadership } from './cluster/leadership.js';
import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';
import type { PoolCapability } from './pool.js';
import type { ReadHandles } from '../vfs/read-handle.js';
import type { ProbeCache } from '../vfs/probe-cache.js';

/** What the scrape-time metrics read; asked for only when a scrape runs (the app builds some of it later). */
export interface MetricsParts {
  pool: Pick<NntpPool, 'metrics'>;
  handles: Pick<ReadHandles, 'snapshots'>;
  importer: Pick<ImporterDomain, 'queue'>;
  healthStore: Pick<HealthStore, 'dueCount' | 'manualCount'>;
  clock: Pick<Clock, 'now'>;
  /** The Streams view (appliance/streams/): each stream's reader class. */
  streams?: Pick<StreamRegistry, 'readerClassOf'>;
  /** Availability from real traffic (appliance/providers/availability.ts). */
  availability?: Pick<ProviderAvailability, 'view'>;
  /** Each provider's quota and expiry (appliance/providers/quota-meter.ts). */
  quota?: Pick<QuotaMeter, 'view'>;
  /** The fit report and cost view (appliance/providers/fit.service.ts). */
  fit?: Pick<FitService, 'report' | 'cost'>;
  /** The probe cache (appliance/vfs/probe-cache.ts). */
  probes?: Pick<ProbeCache, 'size' | 'articles' | 'counts'>;
  /** Whether this node leads (app/cluster/leadership.ts); absent: it does (one node). */
  leadership?: Pick<Leadership, 'role'>;
}

/**
 * Prometheus metrics (GET /metrics, docs/metrics.md): the pool reports each command, the bus the streams, imports,
 * checks and repairs; the rest is read at scrape. Built after the Streams view, so a stream's class is its latest
 * when its bytes are counted.
 */
export function createMetrics(
  core: AppCore,
  pool: PoolCapability,
  parts: Omit<MetricsParts, 'pool' | 'healthStore' | 'clock'>,
): Built<SpoolMetrics> {
  const all: MetricsParts = { ...parts, pool: pool.pool, healthStore: core.stores.health, clock: core.clock };
  const metrics = metricsOf(() => all);
  return built(
    metrics,
    pool.onCommandDone((done) => metrics.commandDone(done)),
    wireMetrics(core.events, metrics),
  );
}

/** Spool's metrics (appliance/metrics/), their scrape-time sources taken from `parts()` at each scrape. */
export function metricsOf(parts: () => MetricsParts): SpoolMetrics {
  const sources: MetricsSources = {
    pool: () => parts().pool.metrics(),
    openStreams() {
      const open = Object.fromEntries(FRONTS.map((f) => [f, 0])) as Record<(typeof FRONTS)[number], number>;
      for (const s of parts().handles.snapshots()) open[s.front]++;
      return open;
    },
    async queueCounts() {
      const s = await parts().importer.queue.stats();
      return {
        pending: s.total_pending,
        processing: s.total_processing,
        retrying: s.total_retrying,
        completed: s.total_completed,
        failed: s.total_failed,
      };
    },
    async healthDue() {
      const { healthStore, clock } = parts();
      return (await healthStore.dueCount(clock.now())) + (await healthStore.manualCount());
    },
    leader: () => (parts().leadership?.role ?? 'leader') === 'leader',
    availability: () => parts().availability?.view() ?? [],
    quotas: () => parts().quota?.view() ?? [],
    fit: () => parts().fit?.report() ?? { window_days: 0, comparison_share: 0, candidates: [] },
    cost: () => parts().fit?.cost() ?? EMPTY_COST,
    probeCache() {
      const p = parts().probes;
      return p
        ? { bytes: p.size, articles: p.articles, ...p.counts }
        : { bytes: 0, articles: 0, hits: 0, stored: 0, evicted: 0, damaged: 0 };
    },
  };
  return new SpoolMetrics(sources, (id) => parts().streams?.readerClassOf(id));
}

/**
 * The metrics' event subscriptions: streams, imports, health checks, repairs. Subscribe after the Streams view's registry,
 * so a stream's class is its latest when its bytes are counted. Returns the unsubscribe.
 */
export function wireMetrics(events: EventSource<SpoolEvents>, metrics: SpoolMetrics): () => void {
  const stops = [
    events.on('stream.opened', (e) => metrics.streams.opened(e)),
    events.on('stream.progress', (e) => metrics.streams.progress(e)),
    events.on('stream.closed', (e) => metrics.streams.closed(e)),
    events.on('queue.item.changed', (e) => metrics.queueItemChanged(e)),
    events.on('health.check.done', (e) => metrics.healthCheckDone(e)),
    events.on('repair.done', (e) => metrics.repairEnded(e, true)),
    events.on('repair.failed', (e) => metrics.repairEnded(e, false)),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
