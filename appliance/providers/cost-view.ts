import type { WatchedDay } from './fit.port.js';
import type { CostViewResponse, ProviderCost } from './fit.wire.js';

const DAY_MS = 86_400_000;
/** Providers sell gigabytes of 10^9 bytes. */
const GB = 1e9;
/** "Last month": the last 30 UTC days, today included. */
export const COST_DAYS = 30;

/** A provider entry's price keys (docs/configuration.md "providers"). */
export interface PricedAccount {
  id: string;
  host: string;
  candidate: boolean;
  price_per_month: number | null;
  price_per_block: number | null;
  block_size_gb: number | null;
}

/** Bytes one provider delivered on one UTC day (the download totals, every node's). */
export interface ProviderDay {
  day: string;
  providerId: string;
  bytes: number;
}

/**
 * The cost view (docs/providers.md "Cost view"): per account, what the last 30 days cost (a monthly price, or the
 * block price per GB times the GB fetched), per GB fetched and per hour watched; for a block account, what is left
 * of the block after every byte the totals hold and the day it runs out at the last 30 days' rate.
 */
export function costView(
  accounts: readonly PricedAccount[],
  totals: Iterable<ProviderDay>,
  watched: Iterable<WatchedDay>,
  now: number,
): CostViewResponse {
  const since = new Date(now - (COST_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const windowBytes = new Map<string, number>();
  const everBytes = new Map<string, number>();
  for (const t of totals) {
    everBytes.set(t.providerId, (everBytes.get(t.providerId) ?? 0) + t.bytes);
    if (t.day >= since) windowBytes.set(t.providerId, (windowBytes.get(t.providerId) ?? 0) + t.bytes);
  }
  let seconds = 0;
  for (const w of watched) if (w.day >= since) seconds += w.seconds;
  const hours = seconds / 3600;
  const providers = accounts.map((a) =>
    accountCost(a, windowBytes.get(a.id) ?? 0, everBytes.get(a.id) ?? 0, hours, now),
  );
  const priced = providers.filter((p) => p.cost !== null && !p.candidate);
  const cost = priced.length ? priced.reduce((s, p) => s + p.cost!, 0) : null;
  const bytes = providers.filter((p) => !p.candidate).reduce((s, p) => s + p.bytes, 0);
  return {
    days: COST_DAYS,
    hours_watched: hours,
    providers,
    total: { cost, bytes, cost_per_gb: per(cost, bytes / GB), cost_per_hour_watched: per(cost, hours) },
  };
}

function accountCost(a: PricedAccount, bytes: number, ever: number, hours: number, now: number): ProviderCost {
  const base = { provider: a.id, host: a.host, candidate: a.candidate, bytes, block_left_gb: null, runs_out_on: null };
  if (a.price_per_month !== null) {
    const cost = a.price_per_month;
    return {
      ...base,
      pricing: 'month',
      cost,
      cost_per_gb: per(cost, bytes / GB),
      cost_per_hour_watched: per(cost, hours),
    };
  }
  if (a.price_per_block !== null && a.block_size_gb) {
    const perGb = a.price_per_block / a.block_size_gb;
    const cost = perGb * (bytes / GB);
    const left = Math.max(0, a.block_size_gb - ever / GB);
    const perDay = bytes / GB / COST_DAYS;
    const runsOut = perDay > 0 ? new Date(now + (left / perDay) * DAY_MS).toISOString().slice(0, 10) : null;
    return {
      ...base,
      pricing: 'block',
      cost,
      cost_per_gb: perGb,
      cost_per_hour_watched: per(cost, hours),
      block_left_gb: left,
      runs_out_on: runsOut,
    };
  }
  return { ...base, pricing: null, cost: null, cost_per_gb: null, cost_per_hour_watched: null };
}

function per(cost: number | null, units: number): number | null {
  return cost === null || !(units > 0) ? null : cost / units;
}
