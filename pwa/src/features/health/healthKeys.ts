import { featureKeys } from '../../lib/queryKeys';
import type { HealthListParams } from './healthApi';

const { all, key } = featureKeys('health');

/** Health's query keys: its counts, its pages, the worker, the repairs (brake, history), the schedule. */
export const healthKeys = {
  all,
  stats: key('stats'),
  lists: key('list'),
  list: (p: HealthListParams) => key('list', p),
  worker: key('worker', 'status'),
  brake: key('repairs', 'brake'),
  history: (page: number) => key('repairs', 'history', page),
  schedule: key('schedule'),
};
