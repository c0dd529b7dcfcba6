import { Gauge, type Registry } from 'prom-client';
import type { PoolMetrics } from '../nntp/pool.wire.js';
import type { ProviderQuotaView } from '../providers/quota.wire.js';

/**
 * Provider states with reasons, quotas and expiry at scrape time (docs/metrics.md): the health the pool gives each
 * provider (ok, degraded, blocked) with its reason, the bytes of its quota and those used in the period, whether the
 * quota paused it, and when its account expires.
 */
export function defineProviderStatus(
  registry: Registry,
  pool: () => PoolMetrics,
  quotas: () => ProviderQuotaView[],
): void {
  const registers = [registry];
  new Gauge({
    name: 'spool_provider_health',
    help: 'A provider\'s health (ok, degraded, blocked) and why (reason "" when ok): 1 for the current one.',
    labelNames: ['provider', 'health', 'reason'] as const,
    registers,
    collect() {
      this.reset();
      for (const p of pool().providers) this.set({ provider: p.id, health: p.health, reason: p.reason ?? '' }, 1);
    },
  });
  const withQuota = () => quotas().filter((q) => q.quota_bytes !== null);
  new Gauge({
    name: 'spool_provider_quota_bytes',
    help: "A provider's quota in bytes per period (period: daily, weekly, monthly, lifetime); none without a quota.",
    labelNames: ['provider', 'period'] as const,
    registers,
    collect() {
      this.reset();
      for (const q of withQuota()) this.set({ provider: q.id, period: q.period }, q.quota_bytes!);
    },
  });
  new Gauge({
    name: 'spool_provider_quota_used_bytes',
    help: 'Bytes of its quota a provider used in the current period (lifetime: from the "already used" figure on).',
    labelNames: ['provider', 'period'] as const,
    registers,
    collect() {
      this.reset();
      for (const q of withQuota()) this.set({ provider: q.id, period: q.period }, q.used_bytes);
    },
  });
  new Gauge({
    name: 'spool_provider_quota_paused',
    help: 'Whether a provider is paused because its quota is spent (1) until the period resets.',
    labelNames: ['provider'] as const,
    registers,
    collect() {
      this.reset();
      for (const q of withQuota()) this.set({ provider: q.id }, q.paused ? 1 : 0);
    },
  });
  new Gauge({
    name: 'spool_provider_expiry_timestamp_seconds',
    help: "When a provider's account expires (the start of its expires_on day, local time), in Unix seconds.",
    labelNames: ['provider'] as const,
    registers,
    collect() {
      this.reset();
      for (const q of quotas()) {
        if (!q.expires_on) continue;
        const [y, m, d] = q.expires_on.split('-').map(Number) as [number, number, number];
        this.set({ provider: q.id }, new Date(y, m - 1, d).getTime() / 1000);
      }
    },
  });
}
