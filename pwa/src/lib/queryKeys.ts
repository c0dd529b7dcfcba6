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
  openStreams: ['streams', 'open'] as const,
};
