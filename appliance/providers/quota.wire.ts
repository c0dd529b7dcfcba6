/**
 * Each provider's quota and expiry as GET /api/providers/quotas answers it and the console's provider list shows it
 * (docs/nntp.md "Quotas and expiry"). A wire file: types only.
 */
import type { QuotaPeriod } from '../config/provider-quota.wire.js';
import type { ProviderReason, ProviderStateName } from '../nntp/provider-state.wire.js';

export interface ProviderQuotaView {
  id: string;
  period: QuotaPeriod;
  /** The quota's size; null: no quota. */
  quota_bytes: number | null;
  /** Bytes used in this period (lifetime: the "already used" figure plus what Spool read since it was set). */
  used_bytes: number;
  /** used / quota in percent (one decimal), null without a quota. */
  used_percent: number | null;
  /** The first day counted (`YYYY-MM-DD`); null for a lifetime quota or none. */
  period_start: string | null;
  /** When the period resets (ISO 8601); null for a lifetime quota or none. */
  resets_at: string | null;
  /** Paused: the quota is spent; it takes no work until `resets_at`. */
  paused: boolean;
  expires_on: string | null;
  /** Whole days until `expires_on` (0 on the day, negative once past); null without one. */
  expires_in_days: number | null;
}

export interface ProviderQuotasResponse {
  providers: ProviderQuotaView[];
}

/**
 * POST /api/providers/{id}/reprobe: `probing` true when the provider was down and one connection is being opened to
 * it now (its state follows on `provider.state.changed`); false when it was not down (a quota pause is lifted by its
 * period's reset, not by a probe). `state` and `reason` as they were when asked.
 */
export interface ProviderReprobeResponse {
  id: string;
  probing: boolean;
  state: ProviderStateName;
  reason: ProviderReason | null;
}
