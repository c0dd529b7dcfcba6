/** Pagination rules of the Queue and Health lists (docs/console.md), kept pure so they are unit-tested. */

export type PagerEntry = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * Pager: every page when there are at most 7, otherwise the first and last page around a window of the
 * current page and its neighbours, with ellipses for the gaps.
 */
export function pagerWindow(current: number, total: number): PagerEntry[] {
  if (total <= 7) return Array.from({ length: total }, (_, i) => i + 1);
  if (current <= 4) return [1, 2, 3, 4, 5, 'ellipsis-end', total];
  if (current >= total - 3) return [1, 'ellipsis-start', total - 4, total - 3, total - 2, total - 1, total];
  return [1, 'ellipsis-start', current - 1, current, current + 1, 'ellipsis-end', total];
}

/** 'Showing a-b of n results'. */
export function showingRange(page: number, pageSize: number, total: number): string {
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return `Showing ${first}-${last} of ${total} results`;
}
