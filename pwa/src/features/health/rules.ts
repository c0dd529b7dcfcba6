/** Client-side rules of docs/console.md for the Health screen, kept pure so they are unit-tested. */
import type { HealthRecord, HealthSortBy, ManualCheck, SortOrder } from './healthApi';

/** Cleanup removes records older than 7 days. */
export const CLEANUP_AGE_DAYS = 7;

export function cleanupCutoff(now: number = Date.now()): string {
  return new Date(now - CLEANUP_AGE_DAYS * 24 * 60 * 60 * 1000).toISOString();
}

/** Retries column: 'H: retry/max', plus 'R: repair retry/max' once a repair is or was under way. */
export function retryLines(r: HealthRecord): string[] {
  const lines = [`H: ${r.retry_count}/${r.max_retries}`];
  if (r.status === 'repair_triggered' || r.repair_retry_count > 0)
    lines.push(`R: ${r.repair_retry_count}/${r.max_repair_retries}`);
  return lines;
}

/** Health error tooltips are cut at 50 characters (40 on narrow screens). */
export function errorTip(message: string, max: number): string {
  return message.length > max ? `${message.slice(0, max)}...` : message;
}

/** The technical details of a record's last error as text, or undefined when there are none. */
export function detailsText(details: unknown): string | undefined {
  if (details === null || details === undefined || details === '') return undefined;
  if (typeof details === 'string') return details;
  try {
    return JSON.stringify(details, null, 2);
  } catch {
    return String(details);
  }
}

/** A manual check needs both paths. */
export function manualCheckComplete(check: ManualCheck): boolean {
  return check.file_path.trim() !== '' && check.source_nzb_path.trim() !== '';
}

/** The file's own name, for toasts, labels and confirmations. */
export const fileName = (path: string) => path.split('/').filter(Boolean).pop() ?? path;

/** A click on a sortable header: the same column flips its order, another starts at its natural order. */
export function nextSort(
  current: { sortBy: HealthSortBy; sortOrder: SortOrder },
  by: HealthSortBy,
): { sortBy: HealthSortBy; sortOrder: SortOrder } {
  if (current.sortBy === by) return { sortBy: by, sortOrder: current.sortOrder === 'asc' ? 'desc' : 'asc' };
  return { sortBy: by, sortOrder: by === 'created_at' ? 'desc' : 'asc' };
}

/** The schedule card reloads every 30 s (its figures move slowly; docs/console-contract.md §10). */
export const SCHEDULE_POLL_MS = 30_000;

/** Hours as the schedule card shows them: '45 min', '2.6 h', '10.6 days'. */
export function describeHours(hours: number): string {
  if (hours < 1) return `${Math.round(hours * 60)} min`;
  if (hours < 48) return `${Math.round(hours * 10) / 10} h`;
  return `${Math.round((hours / 24) * 10) / 10} days`;
}
