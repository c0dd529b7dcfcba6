import type { Clock } from '../clock/clock.js';
import type { Lane } from '../nntp/index.js';
import type { FetchedBytesStore } from './fetched-bytes.port.js';
import { FETCH_CLASSES, type FetchClass, type FetchedBytesDay } from './streams.wire.js';

/** What the traffic view reads of one command the pool finished (the pool's CommandDone). */
export interface PoolCommand {
  providerId: string;
  lane?: Lane;
  stream?: number;
  bytes?: number;
}

export interface PoolTrafficOptions {
  store: FetchedBytesStore;
  clock: Pick<Clock, 'now'>;
  /** A provider's host for its id (the pool's metrics); the id itself when unknown. */
  hostOf: (providerId: string) => string | undefined;
  /** UTC days kept, today included. */
  daysKept?: number;
}

const CLASS_OF: Record<Lane, FetchClass> = {
  play: 'player',
  'play-ahead': 'read_ahead',
  scan: 'scanner',
  health: 'health',
  import: 'import',
  // a PAR2 repair's reads (docs/health.md "PAR2 repair") count with the health checks that led to them
  repair: 'health',
};
/** Providers remembered per open stream (a stream is served by one or two in practice). */
const MAX_PROVIDERS = 8;

/**
 * What the pool fetched, for the Streams view (docs/streaming.md): decoded bytes per fetch class per UTC day, kept
 * across restarts, and per open read handle the providers that served it. The days live in the store
 * (fetched-bytes.port.ts); this counts what the pool fetched since the last `flush` (once a minute and at close),
 * which adds it to the store's days: on several nodes each node adds its own, so the days are every node's sum.
 * `command` runs once per finished command: a few map updates, no allocation but a stream's first provider.
 */
export class PoolTraffic {
  /** Per day, what the pool fetched since the last flush. */
  private readonly unflushed = new Map<string, Record<FetchClass, number>>();
  private readonly byStream = new Map<number, Map<string, number>>();
  private readonly daysKept: number;

  constructor(private readonly o: PoolTrafficOptions) {
    this.daysKept = o.daysKept ?? 30;
  }

  command(c: PoolCommand): void {
    const bytes = c.bytes ?? 0;
    if (bytes <= 0 || c.lane === undefined) return;
    const day = dayOf(this.o.clock.now());
    let counts = this.unflushed.get(day);
    if (!counts) this.unflushed.set(day, (counts = emptyDay()));
    counts[CLASS_OF[c.lane]] += bytes;
    if (c.stream === undefined) return;
    let providers = this.byStream.get(c.stream);
    if (!providers) this.byStream.set(c.stream, (providers = new Map()));
    if (providers.has(c.providerId) || providers.size < MAX_PROVIDERS)
      providers.set(c.providerId, (providers.get(c.providerId) ?? 0) + bytes);
  }

  /** Hosts of the providers that served a stream, most bytes first. */
  providersOf(stream: number): string[] {
    const providers = this.byStream.get(stream);
    if (!providers) return [];
    return [...providers.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => this.o.hostOf(id) ?? id);
  }

  /** A stream closed: its providers are no longer kept. */
  forget(stream: number): void {
    this.byStream.delete(stream);
  }

  /** Per class per day, newest first (today always present): the store's days plus what is not flushed yet. */
  byDay(): FetchedBytesDay[] {
    const days = new Map<string, Record<FetchClass, number>>([[dayOf(this.o.clock.now()), emptyDay()]]);
    for (const d of [...this.o.store.all(), ...[...this.unflushed].map(([day, bytes]) => ({ day, bytes }))]) {
      let sum = days.get(d.day);
      if (!sum) days.set(d.day, (sum = emptyDay()));
      for (const c of FETCH_CLASSES) sum[c] += d.bytes[c] ?? 0;
    }
    return [...days.keys()]
      .sort()
      .slice(-this.daysKept)
      .reverse()
      .map((day) => ({ day, bytes: days.get(day)! }));
  }

  /** Adds what was fetched since the last flush to the store's days (and drops the days no longer kept). */
  async flush(): Promise<void> {
    const kept = this.byDay();
    const oldest = kept[kept.length - 1]!.day;
    const days = [...this.unflushed];
    this.unflushed.clear();
    for (const [day, bytes] of days) if (day >= oldest) await this.o.store.add({ day, bytes });
    await this.o.store.dropBefore(oldest);
  }
}

function emptyDay(): Record<FetchClass, number> {
  return Object.fromEntries(FETCH_CLASSES.map((c) => [c, 0])) as Record<FetchClass, number>;
}

function dayOf(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}
