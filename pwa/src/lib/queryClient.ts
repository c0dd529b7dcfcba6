import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';

/** docs/console-contract.md §8: a query is not retried on a 4xx answer, otherwise up to 3 times. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.isClientError) return false;
  return failureCount < 3;
}

/** docs/console-contract.md §9: queries stay fresh 5 minutes and never refetch on window focus; mutations are never retried. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetryQuery, staleTime: 5 * 60 * 1000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** Polling intervals of docs/console-contract.md §9. */
export const POLL = {
  stats: 5000,
  scanStatus: 2000,
} as const;
