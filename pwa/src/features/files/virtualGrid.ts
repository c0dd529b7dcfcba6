/** Numbers of the file grid (docs/console-contract.md §9): threshold, row height, overscan, viewport, breakpoints. */
export const VIRTUAL_THRESHOLD = 100;
export const ROW_HEIGHT = 200;
export const OVERSCAN_ROWS = 2;
export const VIEWPORT_HEIGHT = 600;

/** 1 column under 768 px, 2 under 1024, 3 under 1280, else 4. */
export function columnsFor(width: number): number {
  if (width < 768) return 1;
  if (width < 1024) return 2;
  if (width < 1280) return 3;
  return 4;
}

export interface RowWindow {
  /** First row rendered (inclusive). */
  start: number;
  /** Last row rendered (exclusive). */
  end: number;
  totalRows: number;
}

/** The rows to render for a scroll position: those in view plus the overscan on each side. */
export function visibleRows(itemCount: number, columns: number, scrollTop: number): RowWindow {
  const totalRows = Math.ceil(itemCount / Math.max(1, columns));
  const first = Math.floor(Math.max(0, scrollTop) / ROW_HEIGHT);
  const last = Math.ceil((Math.max(0, scrollTop) + VIEWPORT_HEIGHT) / ROW_HEIGHT);
  return {
    start: Math.max(0, first - OVERSCAN_ROWS),
    end: Math.min(totalRows, last + OVERSCAN_ROWS),
    totalRows,
  };
}
