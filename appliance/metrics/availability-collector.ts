import { Gauge, type Registry } from 'prom-client';
import {
  AGE_BANDS,
  AVAILABILITY_WINDOWS,
  type AvailabilityCell,
  type ProviderAvailabilityView,
} from '../providers/availability.wire.js';

type CellLabels = { provider: string; age: string; window: string };

/** Every provider's cells with their labels (`window` as "7d" or "30d"). */
function* cellsOf(views: ProviderAvailabilityView[]): Generator<[CellLabels, AvailabilityCell]> {
  for (const v of views)
    for (const w of AVAILABILITY_WINDOWS)
      for (const age of AGE_BANDS) yield [{ provider: v.provider, age, window: `${w}d` }, v.windows[`${w}`][age]];
}

/**
 * Availability from real traffic at scrape time (docs/metrics.md): per provider, post-age band and window, the
 * articles it had and did not have (430), and the share it had. A band with no evidence has no share series.
 */
export function defineAvailability(registry: Registry, views: () => ProviderAvailabilityView[]): void {
  const labelNames = ['provider', 'age', 'window'] as const;
  new Gauge({
    name: 'spool_provider_availability_articles',
    help: 'Articles asked of a provider by post age over the window: answer="had" (it sent it), "missing" (430).',
    labelNames: [...labelNames, 'answer'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, cell] of cellsOf(views())) {
        this.set({ ...labels, answer: 'had' }, cell.had);
        this.set({ ...labels, answer: 'missing' }, cell.missing);
      }
    },
  });
  new Gauge({
    name: 'spool_provider_availability_ratio',
    help: 'Share of the articles asked of a provider that it had, by post age, over the last 7 or 30 days.',
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, cell] of cellsOf(views())) if (cell.share !== null) this.set(labels, cell.share);
    },
  });
}
