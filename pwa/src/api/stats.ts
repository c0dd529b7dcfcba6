import { api } from './client';
import type { HealthStats, PoolMetrics, QueueStats } from './types';

export const statsApi = {
  queue: () => api.get<QueueStats>('/queue/stats'),
  health: () => api.get<HealthStats>('/health/stats'),
  pool: () => api.get<PoolMetrics>('/system/pool/metrics'),
};
