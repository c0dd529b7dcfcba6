import type { ProviderQuotaView } from '../../../../../../appliance/providers/quota.wire';

const gb = (bytes: number) => `${Math.round(bytes / 1e7) / 100} GB`;
const PERIOD: Record<string, string> = {
  daily: 'today',
  weekly: 'this week',
  monthly: 'this month',
  lifetime: 'of the block',
};

/** "12.5 GB of 100 GB this month (12.5%)", or undefined without a quota. */
export function quotaText(q: ProviderQuotaView | undefined): string | undefined {
  if (!q || q.quota_bytes === null) return undefined;
  return `Quota: ${gb(q.used_bytes)} of ${gb(q.quota_bytes)} ${PERIOD[q.period] ?? ''} (${q.used_percent ?? 0}%)`;
}

/** "Expires 2027-03-31 (in 12 days)", "Expired 2026-11-20", or undefined without a date. */
export function expiryText(q: ProviderQuotaView | undefined): string | undefined {
  if (!q?.expires_on || q.expires_in_days === null) return undefined;
  const d = q.expires_in_days;
  if (d < 0) return `Expired ${q.expires_on}`;
  return `Expires ${q.expires_on} (${d === 0 ? 'today' : `in ${d} day${d === 1 ? '' : 's'}`})`;
}
