import type { Clock } from '../clock/clock.js';
import type { AvailabilityDay, AvailabilityStore } from './availability.port.js';
import {
  AGE_BANDS,
  AVAILABILITY_WINDOWS,
  type AgeBand,
  type AvailabilityCell,
  type ProviderAvailabilityView,
} from './availability.wire.js';

/** What availability reads of one command the pool settled (the pool's CommandDone). */
export interface SettledCommand {
  providerId: string;
  outcome: 'ok' | 'missing' | 'damaged' | 'error';
  posted?: number;
}

const DAY_MS = 86_400_000;
/** UTC days kept, today included: the longest window. */
const DAYS_KEPT = Math.max(...AVAILABILITY_WINDOWS);

/** The post-age band of an article posted at `posted` (ms), seen at `now`. */
export function ageBand(posted: number | undefined, now: number): AgeBand {
  if (posted === undefined || !Number.isFinite(posted) || posted <= 0) return 'unknown';
  const days = (now - posted) / DAY_MS;
  if (days <= 30) return '0-30d';
  if (days <= 365) return '1-12m';
  if (days <= 3 * 365) return '1-3y';
  return '3y+';
}

/**
 * Availability from real traffic (docs/providers.md, "Availability"). Counts evidence only: an answered article is
 * "had", a 430 is "did not have"; a timeout, a refusal or any other failure says nothing about the article and is
 * not counted, nor is a damaged body (the provider had something, but not the article). Counts wait in memory until
 * `flush` (once a minute and at close) adds them to the store's days, so several nodes sum their own.
 */
export class ProviderAvailability {
  private unflushed = new Map<string, AvailabilityDay>();

  constructor(private readonly o: { store: AvailabilityStore; clock: Pick<Clock, 'now'> }) {}

  command(c: SettledCommand): void {
    if (c.outcome !== 'ok' && c.outcome !== 'missing') return;
    const now = this.o.clock.now();
    const day = dayOf(now);
    const band = ageBand(c.posted, now);
    const id = `${day}\0${c.providerId}\0${band}`;
    let r = this.unflushed.get(id);
    if (!r) this.unflushed.set(id, (r = { day, provider: c.providerId, band, had: 0, missing: 0 }));
    if (c.outcome === 'ok') r.had++;
    else r.missing++;
  }

  /** Per provider (sorted by id), per window, per post-age band: the store's days plus what is not flushed yet. */
  view(): ProviderAvailabilityView[] {
    const today = this.o.clock.now();
    const since = Object.fromEntries(AVAILABILITY_WINDOWS.map((w) => [w, dayOf(today - (w - 1) * DAY_MS)]));
    const out = new Map<string, ProviderAvailabilityView>();
    for (const r of [...this.o.store.all(), ...this.unflushed.values()]) {
      let v = out.get(r.provider);
      if (!v) out.set(r.provider, (v = emptyView(r.provider)));
      for (const w of AVAILABILITY_WINDOWS) {
        if (r.day < since[w]!) continue;
        const cell = v.windows[`${w}`][r.band];
        cell.had += r.had;
        cell.missing += r.missing;
      }
    }
    for (const v of out.values())
      for (const w of AVAILABILITY_WINDOWS)
        for (const cell of Object.values(v.windows[`${w}`])) cell.share = shareOf(cell);
    return [...out.values()].sort((a, b) => (a.provider < b.provider ? -1 : 1));
  }

  /** Adds what was counted since the last flush to the store and drops the days no longer kept. */
  async flush(): Promise<void> {
    const records = [...this.unflushed.values()];
    this.unflushed = new Map();
    for (const r of records) await this.o.store.add(r);
    await this.o.store.dropBefore(dayOf(this.o.clock.now() - (DAYS_KEPT - 1) * DAY_MS));
  }
}

function shareOf(c: AvailabilityCell): number | null {
  const asked = c.had + c.missing;
  return asked === 0 ? null : c.had / asked;
}

function emptyView(provider: string): ProviderAvailabilityView {
  const bands = () =>
    Object.fromEntries(AGE_BANDS.map((b) => [b, { had: 0, missing: 0, share: null }])) as Record<
      AgeBand,
      AvailabilityCell
    >;
  return { provider, windows: { '7': bands(), '30': bands() } };
}

function dayOf(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}
