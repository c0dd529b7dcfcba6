import { Counter, Histogram, type Registry } from 'prom-client';

/** Seconds from a stream's open to its first byte: a player's start. */
const FIRST_BYTE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30];
/** Seconds to serve 8 MiB after a seek: how long a jump in a film leaves the picture frozen. */
const SEEK_BUCKETS = [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];
/** Seconds a provider took over one BODY or STAT, sent to answered. */
const ARTICLE_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Every metric family Spool exposes, in one registry of its own (never prom-client's global one). The ones fed by
 * events are plain; the gauges and the pool's own counters are filled by `collect` (collectors.ts) at scrape time.
 * docs/metrics.md lists them with their labels.
 */
export function defineFamilies(registry: Registry) {
  const registers = [registry];
  return {
    firstByte: new Histogram({
      name: 'spool_stream_first_byte_seconds',
      help: 'Time from a stream opening to its first byte served, by front.',
      labelNames: ['front'] as const,
      buckets: FIRST_BYTE_BUCKETS,
      registers,
    }),
    seekRead: new Histogram({
      name: 'spool_stream_seek_read_seconds',
      help: 'Time from opening a stream at a position past 0 (a seek) until 8 MiB were served, by front.',
      labelNames: ['front'] as const,
      buckets: SEEK_BUCKETS,
      registers,
    }),
    articleLatency: new Histogram({
      name: 'spool_provider_article_seconds',
      help: 'Time a provider took over one BODY or STAT, sent to answered, by provider, command and outcome.',
      labelNames: ['provider', 'command', 'outcome'] as const,
      buckets: ARTICLE_BUCKETS,
      registers,
    }),
    bytesServed: new Counter({
      name: 'spool_stream_bytes_served_total',
      help: 'File bytes handed to readers, by front and reader class.',
      labelNames: ['front', 'reader_class'] as const,
      registers,
    }),
    streams: new Counter({
      name: 'spool_streams_total',
      help: 'Streams that ended, by front and how they ended.',
      labelNames: ['front', 'outcome'] as const,
      registers,
    }),
    stalls: new Counter({
      name: 'spool_stream_stalls_total',
      help: 'Waits for the network over 1 s after a stream\u2019s first byte, by front.',
      labelNames: ['front'] as const,
      registers,
    }),
    articles: new Counter({
      name: 'spool_provider_articles_total',
      help: 'BODY and STAT commands a provider settled, by provider, command and outcome (missing: 430; damaged: failed its CRC).',
      labelNames: ['provider', 'command', 'outcome'] as const,
      registers,
    }),
    imports: new Counter({
      name: 'spool_imports_total',
      help: 'Queue items that finished an import attempt, by outcome.',
      labelNames: ['outcome'] as const,
      registers,
    }),
    healthChecks: new Counter({
      name: 'spool_health_checks_total',
      help: 'Health checks that ended, by verdict (inconclusive: no verdict, e.g. an outage).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    repairs: new Counter({
      name: 'spool_repairs_total',
      help: 'Repairs asked of Radarr/Sonarr, by outcome.',
      labelNames: ['outcome'] as const,
      registers,
    }),
  };
}

export type Families = ReturnType<typeof defineFamilies>;
