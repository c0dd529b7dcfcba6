import { Counter, Gauge, type Registry } from 'prom-client';
import type { PoolMetrics, ProviderMetrics } from '../nntp/pool.wire.js';
import type { ProviderAvailabilityView } from '../providers/availability.wire.js';
import type { CostViewResponse, FitReportResponse } from '../providers/fit.wire.js';
import { defineAvailability } from './availability-collector.js';
import { defineProviderStatus } from './quota-collector.js';
import type { ProviderQuotaView } from '../providers/quota.wire.js';
import { defineCost, defineFit } from './fit-collector.js';
import { FRONTS, PROVIDER_STATES, type Front, type ProviderStateLabel } from './labels.js';

/** What the scrape-time families read: each is called only while a scrape runs, so an idle Spool computes nothing. */
export interface MetricsSources {
  /** The NNTP pool's snapshot (NntpPool.metrics). */
  pool(): PoolMetrics;
  /** The read handles open now, by front. */
  openStreams(): Record<Front, number>;
  /** Queue items by status (pending, processing, retrying, completed, failed). */
  queueCounts(): Promise<Record<string, number>>;
  /** Files whose health check is due now (scheduled ones past their time plus manual ones waiting). */
  healthDue(): Promise<number>;
  /** Whether this node does the background work (the leader; always so on LMDB). */
  leader(): boolean;
  /** Availability from real traffic per provider (appliance/providers/availability.ts); absent: none kept. */
  availability?(): ProviderAvailabilityView[];
  /** Each provider's quota and expiry (appliance/providers/quota-meter.ts); absent: none metered. */
  quotas?(): ProviderQuotaView[];
  /** The fit report and the cost view (appliance/providers/fit.service.ts); absent: none. */
  fit?(): FitReportResponse;
  cost?(): CostViewResponse;
  /** The probe cache's size and what it did since start (appliance/vfs/probe-cache.ts); absent: none. */
  probeCache?(): ProbeCacheFigures;
}

/** The probe cache as the metrics read it. */
export interface ProbeCacheFigures {
  bytes: number;
  articles: number;
  hits: number;
  stored: number;
  evicted: number;
  damaged: number;
}

/** The provider's state as the pool announces it; a removed provider still draining counts as disabled. */
function providerState(p: ProviderMetrics): ProviderStateLabel {
  return p.state === 'removed' ? 'disabled' : p.state;
}

/** The families filled at scrape time from `sources`. */
export function defineCollected(registry: Registry, sources: MetricsSources): void {
  const registers = [registry];
  if (sources.availability) defineAvailability(registry, sources.availability);
  defineProviderStatus(
    registry,
    () => sources.pool(),
    () => sources.quotas?.() ?? [],
  );
  if (sources.fit) defineFit(registry, sources.fit);
  if (sources.cost) defineCost(registry, sources.cost);
  defineProviderFamilies(registers, () => sources.pool());
  defineWorkFamilies(registers, sources);
  if (sources.probeCache) defineProbeCache(registers, sources.probeCache);
}

/** The probe cache (docs/streaming.md, "The probe cache"): its size, and its hits, stores, evictions and damage. */
function defineProbeCache(registers: Registry[], figures: () => ProbeCacheFigures): void {
  new Gauge({
    name: 'spool_probe_cache_bytes',
    help: 'Bytes the probe cache keeps on disk (streaming.probe_cache_size_mb bounds it).',
    registers,
    collect() {
      this.set(figures().bytes);
    },
  });
  new Gauge({
    name: 'spool_probe_cache_articles',
    help: 'Articles the probe cache keeps on disk.',
    registers,
    collect() {
      this.set(figures().articles);
    },
  });
  const events = ['hits', 'stored', 'evicted', 'damaged'] as const;
  new Counter({
    name: 'spool_probe_cache_events_total',
    help:
      'Articles the probe cache served from disk (hits), kept (stored), removed for room (evicted) or found damaged ' +
      'and removed (damaged), since Spool started.',
    labelNames: ['event'] as const,
    registers,
    collect() {
      this.reset();
      const f = figures();
      for (const event of events) this.inc({ event }, f[event]);
    },
  });
}

/** Per provider: connections, state and bytes fetched; and the pool's waiting requests. */
function defineProviderFamilies(registers: Registry[], pool: () => PoolMetrics): void {
  new Gauge({
    name: 'spool_provider_connections',
    help: "Connections open to a provider, labelled with the provider's state (usable, cooling_down, paused, disabled).",
    labelNames: ['provider', 'state'] as const,
    registers,
    collect() {
      this.reset();
      for (const p of pool().providers) this.set({ provider: p.id, state: providerState(p) }, p.active_connections);
    },
  });
  new Gauge({
    name: 'spool_provider_up',
    help: 'Whether a provider takes requests now (1) or is cooling down after failures or disabled (0).',
    labelNames: ['provider'] as const,
    registers,
    collect() {
      this.reset();
      for (const p of pool().providers) this.set({ provider: p.id }, providerState(p) === 'usable' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'spool_provider_state',
    help: "A provider's state as one series per state, 1 for the current one.",
    labelNames: ['provider', 'state'] as const,
    registers,
    collect() {
      this.reset();
      for (const p of pool().providers)
        for (const state of PROVIDER_STATES) this.set({ provider: p.id, state }, providerState(p) === state ? 1 : 0);
    },
  });
  new Counter({
    name: 'spool_provider_bytes_fetched_total',
    help: 'Bytes read from a provider since Spool started, by provider.',
    labelNames: ['provider'] as const,
    registers,
    collect() {
      this.reset();
      for (const p of pool().providers) this.inc({ provider: p.id }, p.bytes_downloaded);
    },
  });
  new Gauge({
    name: 'spool_pool_waiting_requests',
    help: 'Article requests waiting for a provider connection.',
    registers,
    collect() {
      this.set(pool().waiting_requests);
    },
  });
}

/** The work in hand: open streams, the import queue, health checks due, and whether this node leads. */
function defineWorkFamilies(registers: Registry[], sources: MetricsSources): void {
  new Gauge({
    name: 'spool_streams_open',
    help: 'Streams open now (WebDAV GETs and FUSE opens being read), by front.',
    labelNames: ['front'] as const,
    registers,
    collect() {
      const open = sources.openStreams();
      for (const front of FRONTS) this.set({ front }, open[front]);
    },
  });
  new Gauge({
    name: 'spool_queue_items',
    help: 'Import queue items by status; pending + processing + retrying is the queue depth.',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const counts = await sources.queueCounts();
      for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
    },
  });
  new Gauge({
    name: 'spool_health_due_files',
    help: 'Files whose health check is due now and not yet run.',
    registers,
    async collect() {
      this.set(await sources.healthDue());
    },
  });
  new Gauge({
    name: 'spool_node_leader',
    help: 'Whether this node leads (1: it runs imports, health checks and repairs); always 1 on one node with LMDB.',
    registers,
    collect() {
      this.set(sources.leader() ? 1 : 0);
    },
  });
}
