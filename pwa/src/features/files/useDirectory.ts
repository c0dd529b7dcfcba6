import { useQuery } from '@tanstack/react-query';
import { listDirectory } from '../../lib/webdav';
import { shouldRetryListing } from '../../lib/webdavErrors';
import { filesKeys } from './filesKeys';

export const DIRECTORY_FRESH_MS = 30_000;

/** One directory listing: fresh 30 s, no refetch on focus or reconnect, §8 retry rule (docs/console-contract.md §9). */
export function useDirectory(path: string, showCorrupted: boolean, enabled: boolean) {
  return useQuery({
    queryKey: filesKeys.listing(path, showCorrupted),
    queryFn: ({ signal }) => listDirectory(path, { showCorrupted, signal }),
    enabled,
    staleTime: DIRECTORY_FRESH_MS,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: shouldRetryListing,
  });
}
