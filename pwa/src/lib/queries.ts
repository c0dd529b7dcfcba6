import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { statsApi } from '../api/stats';
import { useLive, wantLiveTopic } from './live';
import { POLL } from './queryClient';
import { healthKeys } from '../features/health/healthKeys';
import { providerKeys } from '../features/config/sections/providers/providerKeys';
import { queueKeys } from '../features/queue/queueKeys';

/** The contract's polling interval, or none while the live channel pushes the changes. */
export function usePoll(ms: number): number | false {
  return useLive() ? false : ms;
}

export function useQueueStats() {
  const refetchInterval = usePoll(POLL.stats);
  return useQuery({ queryKey: queueKeys.stats, queryFn: statsApi.queue, refetchInterval });
}

export function useHealthStats() {
  const refetchInterval = usePoll(POLL.stats);
  return useQuery({ queryKey: healthKeys.stats, queryFn: statsApi.health, refetchInterval });
}

/** Pool metrics: ticks of the live channel while it is up (asked for only while a card shows them), else polled. */
export function usePoolMetrics() {
  const refetchInterval = usePoll(POLL.stats);
  useEffect(() => wantLiveTopic('pool.metrics.tick'), []);
  return useQuery({ queryKey: providerKeys.poolMetrics, queryFn: statsApi.pool, refetchInterval });
}
