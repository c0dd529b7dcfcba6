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
 * across restarts (the days are read once at start and written when `flush` runs: once a minute and at close), and
 * per open read handle the providers that served it. `command` runs once per finished command: a few map updates,
 * no allocation but a stream's first provider.
 */
export class PoolTraffic {
  private readonly days = new Map<string, Record<FetchClass, number>>();
  private readonly dirty = new Set<string>();
  private readonly byStream = new Map<number, Map<string, number>>();
  private readonly daysKept: number;

  constructor(private readonly o: PoolTrafficOptions) {
    this.daysKept = o.daysKept ?? 30;
    for (const d of o.store.all()) this.days.set(d.day, { ...emptyDay(), ...d.bytes });
  }

  command(c: PoolCommand): void {
    const bytes = c.bytes ?? 0;
    if (bytes <= 0 || c.lane === undefined) return;
    const day = dayOf(this.o.clock.now());
    this.bucket(day)[CLASS_OF[c.lane]] += bytes;
    this.dirty.add(day);
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

  /** Per class per day, newest first (today always present). */
  byDay(): FetchedBytesDay[] {
    this.bucket(dayOf(this.o.clock.now()));
    return [...this.days.entries()]
      .sort(([a], [b]) => (a < b ? 1 : -1))
      .map(([day, bytes]) => ({ day, bytes: { ...bytes } }));
  }

  /** Writes the days that changed since the last flush (and drops the days no longer kept). */
  async flush(): Promise<void> {
    const days = [...this.dirty];
    this.dirty.clear();
    for (const day of days) {
      const bytes = this.days.get(day);
      if (bytes) await this.o.store.put({ day, bytes: { ...bytes } });
    }
    const oldest = [...this.days.keys()].sort()[0];
    if (oldest !== undefined) await this.o.store.dropBefore(oldest);
  }

  private bucket(day: string): Record<FetchClass, number> {
    let b = this.days.get(day);
    if (!b) {
      this.days.set(day, (b = emptyDay()));
      const keep = [...this.days.keys()].sort().slice(-this.daysKept);
      for (const d of this.days.keys()) if (!keep.includes(d)) this.days.delete(d);
    }
    return b;
  }
}

function emptyDay(): Record<FetchClass, number> {
  return Object.fromEntries(FETCH_CLASSES.map((c) => [c, 0])) as Record<FetchClass, number>;
}

function dayOf(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}
