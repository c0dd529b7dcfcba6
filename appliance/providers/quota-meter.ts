/**
 * Quotas and expiry (docs/nntp.md "Quotas and expiry"): each provider's bytes in its quota's period, counted from
 * the download totals (every node's, per provider and local day) plus what this node read since they were last
 * sampled; notices at 80, 95 and 100% and 7 days before the expiry date, each claimed once in storage so it is sent
 * once per threshold and period across restarts and nodes; the pause at 100% (the pool's `pauseForQuota`), lifted
 * when the period resets. A pause is never evidence of anything.
 */
import type { Clock } from '../clock/clock.js';
import { EXPIRY_NOTICE_DAYS, QUOTA_THRESHOLDS, type QuotaPeriod } from '../config/provider-quota.wire.js';
import type { Logger } from '../logging/logger.js';
import { daysUntil, quotaWindow, type QuotaWindow } from './quota-period.js';
import type { QuotaStateStore } from './quota.port.js';
import type { ProviderExpiryEvent, ProviderQuotaEvent } from '../events/index.js';
import type { ProviderQuotaView } from './quota.wire.js';

/** The keys of a provider entry the meter reads (docs/configuration.md "providers"). */
export interface QuotaSettings {
  id: string;
  host: string;
  quota_period: QuotaPeriod;
  quota_bytes: number | null;
  quota_reset_day: number;
  quota_used_bytes: number;
  expires_on: string | null;
}

export interface QuotaEventSink {
  emit(name: 'provider.quota.changed', payload: ProviderQuotaEvent): void;
  emit(name: 'provider.expiry.near', payload: ProviderExpiryEvent): void;
}

export interface QuotaMeterDeps {
  settings: () => readonly QuotaSettings[];
  /** Moves what this node's pool read since the last look into the download totals (synchronously). */
  sample: () => void;
  /** Bytes per provider and local day (`YYYY-MM-DD`), every node's. */
  days: () => Iterable<{ day: string; providerId: string; bytes: number }>;
  store: QuotaStateStore;
  /** Pauses a provider until its period resets (`until`), or resumes it (`undefined`). */
  pause: (id: string, until: number | null | undefined) => void;
  events: QuotaEventSink;
  clock: Clock;
  logger: Logger;
  /** Longest wait between two evaluations (the period's reset is also a wake-up). */
  everyMs?: number;
}

interface Metered {
  view: ProviderQuotaView;
  /** Bytes used at the last evaluation, and read since (commands settled, before they are sampled). */
  used: number;
  pending: number;
  /** Bytes at which the next threshold is crossed; Infinity: none left. */
  nextAt: number;
}

export class QuotaMeter {
  private readonly metered = new Map<string, Metered>();
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private cancel: (() => void) | undefined;
  private closed = false;

  constructor(private readonly d: QuotaMeterDeps) {}

  /** Evaluates now, then on its own until closed. */
  start(): Promise<void> {
    return this.evaluate();
  }

  /** A command settled: its bytes count at once, and crossing a threshold evaluates exactly (mid-stream pauses). */
  command(providerId: string, bytes: number): void {
    const m = this.metered.get(providerId);
    if (!m || bytes === 0) return;
    m.pending += bytes;
    if (m.used + m.pending >= m.nextAt) void this.evaluate();
  }

  /** Each provider's quota and expiry as last evaluated (with the bytes read since). */
  view(): ProviderQuotaView[] {
    return this.d.settings().map((s) => {
      const m = this.metered.get(s.id);
      if (!m) return emptyView(s, this.d.clock.now());
      const used = m.used + m.pending;
      const quota = m.view.quota_bytes;
      return { ...m.view, used_bytes: used, used_percent: quota ? percent(used, quota) : null };
    });
  }

  /** Evaluates every provider now (serialised: a call while one runs is one more run after it, shared). */
  evaluate(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.queued ??= this.running.then(() => {
        this.queued = undefined;
        return this.evaluate();
      });
      return this.queued;
    }
    this.running = this.evaluateAll()
      .catch((err: unknown) => this.d.logger.error('could not evaluate quotas', { error: String(err) }))
      .finally(() => {
        this.running = undefined;
        if (!this.queued) this.scheduleNext();
      });
    return this.running;
  }

  close(): void {
    this.closed = true;
    this.cancel?.();
  }

  private async evaluateAll(): Promise<void> {
    this.d.sample();
    for (const m of this.metered.values()) m.pending = 0;
    const now = this.d.clock.now();
    const days = [...this.d.days()];
    const seen = new Set<string>();
    for (const s of this.d.settings()) {
      seen.add(s.id);
      const bytes = days.filter((r) => r.providerId === s.id);
      await this.evaluateOne(s, bytes, now);
      await this.expiry(s, now);
    }
    for (const id of [...this.metered.keys()]) if (!seen.has(id)) this.metered.delete(id);
    // A threshold crossed by bytes read meanwhile: once more.
    if ([...this.metered.values()].some((m) => m.used + m.pending >= m.nextAt)) void this.evaluate();
  }

  private async evaluateOne(s: QuotaSettings, days: Array<{ day: string; bytes: number }>, now: number) {
    const previous = this.metered.get(s.id);
    const wasPaused = previous?.view.paused ?? false;
    if (s.quota_period === 'none' || s.quota_bytes === null) {
      this.metered.delete(s.id);
      if (wasPaused) this.resume(s, previous!, null);
      return;
    }
    const window = quotaWindow(s.quota_period, s.quota_reset_day, now);
    const used = await this.usedIn(s, window, days);
    const quota = s.quota_bytes;
    const paused = used >= quota;
    const view: ProviderQuotaView = {
      ...emptyView(s, now),
      quota_bytes: quota,
      used_bytes: used,
      used_percent: percent(used, quota),
      period_start: window.start,
      resets_at: window.resetsAt === null ? null : new Date(window.resetsAt).toISOString(),
      paused,
    };
    const nextAt = QUOTA_THRESHOLDS.map((t) => (quota * t) / 100).find((at) => used < at) ?? Infinity;
    // Bytes read while this evaluation awaited storage are not in `used` yet: they stay pending.
    const m: Metered = { view, used, pending: previous?.pending ?? 0, nextAt };
    this.metered.set(s.id, m);
    await this.tellThresholds(s, m, window, await this.markBase(s, window));
    if (paused && !wasPaused) this.d.pause(s.id, window.resetsAt);
    else if (!paused && wasPaused) this.resume(s, m, window.resetsAt);
  }

  /** Bytes in the window; a lifetime quota: the "already used" figure plus what was read since it was set. */
  private async usedIn(s: QuotaSettings, w: QuotaWindow, days: Array<{ day: string; bytes: number }>) {
    const start = w.start;
    if (start !== null) return days.reduce((sum, r) => (r.day >= start ? sum + r.bytes : sum), 0);
    const counted = days.reduce((sum, r) => sum + r.bytes, 0);
    let base = await this.d.store.baseline(s.id);
    if (!base || base.setting !== s.quota_used_bytes) {
      base = { setting: s.quota_used_bytes, counted };
      await this.d.store.setBaseline(s.id, base);
    }
    return s.quota_used_bytes + Math.max(0, counted - base.counted);
  }

  /** What makes a period's notices its own: the period, its first day (or the lifetime's starting point), the size. */
  private async markBase(s: QuotaSettings, w: QuotaWindow): Promise<string> {
    if (w.start !== null) return `${s.quota_period}:${w.start}:${s.quota_bytes}`;
    const base = await this.d.store.baseline(s.id);
    return `lifetime:${base?.setting ?? 0}@${base?.counted ?? 0}:${s.quota_bytes}`;
  }

  /** Claims every threshold reached; tells the highest one newly claimed (a jump from 50% to 100% is one notice). */
  private async tellThresholds(s: QuotaSettings, m: Metered, w: QuotaWindow, base: string): Promise<void> {
    let told: ProviderQuotaEvent['threshold'] = null;
    for (const t of QUOTA_THRESHOLDS)
      if (m.used >= (m.view.quota_bytes! * t) / 100 && (await this.d.store.claim(s.id, `${base}:${t}`))) told = t;
    if (told !== null) this.d.events.emit('provider.quota.changed', this.event(s, m, told, w.resetsAt));
  }

  private resume(s: QuotaSettings, m: Metered, resetsAt: number | null): void {
    this.d.pause(s.id, undefined);
    this.d.events.emit('provider.quota.changed', this.event(s, m, null, resetsAt));
  }

  private event(
    s: QuotaSettings,
    m: Metered,
    threshold: ProviderQuotaEvent['threshold'],
    resetsAt: number | null,
  ): ProviderQuotaEvent {
    const { id, host, quota_period: period } = s;
    return { id, host, threshold, period, used_bytes: m.used, quota_bytes: s.quota_bytes ?? 0, resets_at: resetsAt };
  }

  /** The notice 7 days ahead of the expiry date, and one on the day (once each; a late setting tells at once). */
  private async expiry(s: QuotaSettings, now: number): Promise<void> {
    const date = s.expires_on;
    if (!date) return;
    const left = daysUntil(date, now);
    if (left > EXPIRY_NOTICE_DAYS) return;
    const ahead = await this.d.store.claim(s.id, `expiry:${date}:${EXPIRY_NOTICE_DAYS}`);
    const due = left <= 0 && (await this.d.store.claim(s.id, `expiry:${date}:0`));
    if (ahead || due)
      this.d.events.emit('provider.expiry.near', { id: s.id, host: s.host, expires_on: date, days_left: left });
  }

  private scheduleNext(): void {
    if (this.closed) return;
    this.cancel?.();
    const now = this.d.clock.now();
    const resets = [...this.metered.values()]
      .map((m) => (m.view.resets_at === null ? Infinity : Date.parse(m.view.resets_at) - now))
      .filter((ms) => ms > 0);
    // Local midnight also moves expiry countdowns on.
    const midnight = quotaWindow('daily', 1, now).resetsAt! - now;
    const wait = Math.min(this.d.everyMs ?? 30_000, midnight, ...resets);
    this.cancel = this.d.clock.schedule(() => void this.evaluate(), Math.max(wait, 0) + 1);
  }
}

function emptyView(s: QuotaSettings, now: number): ProviderQuotaView {
  return {
    id: s.id,
    period: s.quota_bytes === null ? 'none' : s.quota_period,
    quota_bytes: null,
    used_bytes: 0,
    used_percent: null,
    period_start: null,
    resets_at: null,
    paused: false,
    expires_on: s.expires_on,
    expires_in_days: s.expires_on ? daysUntil(s.expires_on, now) : null,
  };
}

const percent = (used: number, quota: number) => Math.round((used / quota) * 1000) / 10;
