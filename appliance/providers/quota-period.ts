/**
 * The window a quota counts in (docs/nntp.md "Quotas and expiry"), in the local calendar the download totals
 * count days in (`YYYY-MM-DD` labels, local time): a day from midnight; a week from its reset weekday (1 Monday ..
 * 7 Sunday); a month from its reset day (a shorter month resets on its last day); a lifetime never resets.
 */
import type { QuotaPeriod } from '../config/provider-quota.wire.js';

export interface QuotaWindow {
  /** The first day counted (a day label), or null: every day (lifetime). */
  start: string | null;
  /** When the next period starts (ms since the epoch), or null: never (lifetime). */
  resetsAt: number | null;
}

const pad = (n: number) => String(n).padStart(2, '0');
const label = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const daysIn = (year: number, month: number) => new Date(year, month + 1, 0).getDate();
/** Local midnight of a calendar day (months and days past their range roll over, as Date does). */
const midnight = (year: number, month: number, day: number) => new Date(year, month, day);

export function quotaWindow(period: Exclude<QuotaPeriod, 'none'>, resetDay: number, now: number): QuotaWindow {
  const d = new Date(now);
  const [y, m, day] = [d.getFullYear(), d.getMonth(), d.getDate()];
  if (period === 'lifetime') return { start: null, resetsAt: null };
  if (period === 'daily') return { start: label(midnight(y, m, day)), resetsAt: midnight(y, m, day + 1).getTime() };
  if (period === 'weekly') {
    const isoDay = ((d.getDay() + 6) % 7) + 1;
    const back = (isoDay - Math.min(Math.max(resetDay, 1), 7) + 7) % 7;
    return { start: label(midnight(y, m, day - back)), resetsAt: midnight(y, m, day - back + 7).getTime() };
  }
  const resetIn = (year: number, month: number) => {
    const first = midnight(year, month, 1);
    return midnight(
      first.getFullYear(),
      first.getMonth(),
      Math.min(resetDay, daysIn(first.getFullYear(), first.getMonth())),
    );
  };
  const thisMonth = resetIn(y, m);
  const start = now >= thisMonth.getTime() ? thisMonth : resetIn(y, m - 1);
  return { start: label(start), resetsAt: resetIn(start.getFullYear(), start.getMonth() + 1).getTime() };
}

/** Whole days from today to `date` (both local calendar days): 0 on the day, negative once past. */
export function daysUntil(date: string, now: number): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const today = new Date(now);
  const a = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  return Math.round((Date.UTC(y, m - 1, d) - a) / 86_400_000);
}
