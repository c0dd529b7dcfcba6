import { featureKeys } from '../../lib/queryKeys';
import type { QueueListParams } from './queueApi';

const { all, key } = featureKeys('queue');

/** The queue's query keys: its counts, its pages, the directory scan's status. */
export const queueKeys = {
  all,
  stats: key('stats'),
  lists: key('list'),
  list: (p: QueueListParams) => key('list', p),
  scanStatus: key('scan', 'status'),
};
