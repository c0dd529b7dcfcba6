import { useEffect, useMemo, useState } from 'react';
import type { RowSelectionState } from '@tanstack/react-table';
import { useDebounced } from '../lib/hooks';
import type { ListParams } from './listParams';

/**
 * The state of a paged, filtered list with row selection (Queue and Health screens): the page, the status filter,
 * the search text (debounced 300 ms before it is asked for) and the selection. A new filter goes back to page 1;
 * a new page or filter starts from a clean selection. `resetKey` is anything else that changes what the list shows
 * (the sort): it resets the same way.
 */
export function useListState<Status extends string>(resetKey?: unknown) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<Status | ''>('');
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim(), 300);
  const [selection, setSelection] = useState<RowSelectionState>({});

  useEffect(() => setSelection({}), [page, status, search, resetKey]);
  useEffect(() => setPage(1), [status, search, resetKey]);

  const params: ListParams<Status> = useMemo(() => ({ page, status, search }), [page, status, search]);
  return { params, page, setPage, status, setStatus, searchText, setSearchText, selection, setSelection };
}

/** Moves back to the last page when items went away; `total` is undefined until the list has loaded. */
export function useClampedPage(
  page: number,
  setPage: (page: number) => void,
  pageSize: number,
  total: number | undefined,
): void {
  useEffect(() => {
    if (total === undefined) return;
    const last = Math.max(1, Math.ceil(total / pageSize));
    if (page > last) setPage(last);
  }, [total, page, pageSize, setPage]);
}
