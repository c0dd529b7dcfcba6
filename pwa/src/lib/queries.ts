import { useQuery } from '@tanstack/react-query';
import { statsApi } from '../api/stats';
import { POLL } from './queryClient';

/** Query keys shared by every screen so a refetch in one place updates all. */
export const keys = {
  authConfig: ['auth', 'config'] as const,
  registration: ['auth', 'registration-status'] as const,
  user: ['user'] as const,
  users: ['users'] as const,
  config: ['config'] as const,
  queueStats: ['queue', 'stats'] as const,
  healthStats: ['health', 'stats'] as const,
  poolMetrics: ['system', 'pool', 'metrics'] as const,
};

export function useQueueStats() {
  return useQuery({ queryKey: keys.queueStats, queryFn: statsApi.queue, refetchInterval: POLL.stats });
}

export function useHealthStats() {
  return useQuery({ queryKey: keys.healthStats, queryFn: statsApi.health, refetchInterval: POLL.stats });
}

export function usePoolMetrics() {
  return useQuery({ queryKey: keys.poolMetrics, queryFn: statsApi.pool, refetchInterval: POLL.stats });
}
