/**
 * SABnzbd's calendar for download totals: days are local dates (`YYYY-MM-DD`, the labels of `server_stats`'
 * `daily`), a week starts on Monday, a month on the 1st, all in the process's local time zone (TZ), as SABnzbd's
 * own meter counts them. Labels sort as dates, so "this week" is every label from Monday's on.
 */
const pad = (n: number) => String(n).padStart(2, '0');

export function dayLabel(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The label of this week's Monday. */
export function weekStartLabel(ms: number): string {
  const d = new Date(ms);
  const sinceMonday = (d.getDay() + 6) % 7;
  return dayLabel(new Date(d.getFullYear(), d.getMonth(), d.getDate() - sinceMonday, 12).getTime());
}

/** `YYYY-MM-`: every day label of this month starts with it. */
export function monthPrefix(ms: number): string {
  return dayLabel(ms).slice(0, 8);
}
