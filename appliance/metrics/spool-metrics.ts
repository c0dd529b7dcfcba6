import { Registry } from 'prom-client';
import type { HealthCheckDoneEvent, RepairEvent } from '../events/index.js';
import type { QueueItemChangedEvent } from '../events/live.wire.js';
import type { CommandDone } from '../nntp/index.js';
import { defineCollected, type MetricsSources } from './collectors.js';
import { defineFamilies, type Families } from './families.js';
import { ARTICLE_OUTCOMES, CHECK_OUTCOMES, IMPORT_OUTCOMES, REPAIR_OUTCOMES, bounded } from './labels.js';
import { StreamMeter } from './stream-meter.js';

/**
 * Spool's Prometheus metrics (docs/metrics.md): one registry of its own, fed by the events app/ hands it (the
 * methods below) and, at scrape time only, by `sources`. Every label value comes from a fixed list or the provider
 * ids of the config: never a path.
 */
export class SpoolMetrics {
  readonly registry = new Registry();
  private readonly f: Families;
  /** The per-stream state behind the stream families (stream.opened / progress / closed). */
  readonly streams: StreamMeter;

  /** `readerClassOf`: a stream's reader class (the Streams view's), for the bytes served. */
  constructor(sources: MetricsSources, readerClassOf?: (streamId: string) => string | undefined) {
    this.f = defineFamilies(this.registry);
    defineCollected(this.registry, sources);
    this.streams = new StreamMeter(this.f, readerClassOf);
    for (const outcome of IMPORT_OUTCOMES) this.f.imports.inc({ outcome }, 0);
    for (const outcome of CHECK_OUTCOMES) this.f.healthChecks.inc({ outcome }, 0);
    for (const outcome of REPAIR_OUTCOMES) this.f.repairs.inc({ outcome }, 0);
  }

  /** The exposition's content type (text format 0.0.4). */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text: runs the scrape-time collectors. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  /** A provider settled one BODY or STAT (the pool's onCommandDone). */
  commandDone(d: CommandDone): void {
    const labels = {
      provider: d.providerId,
      command: d.command,
      outcome: bounded(ARTICLE_OUTCOMES, d.outcome, 'error'),
    };
    this.f.articleLatency.observe(labels, d.ms / 1000);
    this.f.articles.inc(labels);
  }

  /** queue.item.changed: an item reaching completed, failed or retrying ended an import attempt. */
  queueItemChanged(e: QueueItemChangedEvent): void {
    if (e.status === e.previous_status) return;
    if ((IMPORT_OUTCOMES as readonly string[]).includes(e.status)) this.f.imports.inc({ outcome: e.status });
  }

  /** health.check.done: a check ended, with its verdict or why it has none. */
  healthCheckDone(e: HealthCheckDoneEvent): void {
    this.f.healthChecks.inc({ outcome: bounded(CHECK_OUTCOMES, e.outcome, 'inconclusive') });
  }

  /** repair.done and repair.failed: what a repair asked of the arrs came to. */
  repairEnded(e: RepairEvent, done: boolean): void {
    this.f.repairs.inc({ outcome: done ? 'triggered' : e.will_retry ? 'retrying' : 'failed' });
  }
}
