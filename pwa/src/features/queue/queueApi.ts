import { api, type Paged } from '../../api/client';
import type { ListParams } from '../../components/listParams';
import type {
  QueueBulkDeleteResult,
  QueueBulkRestartResult,
  QueueClearResult,
  QueueItemJson,
  QueueStatus,
  ScanStatus,
} from '../../../../appliance/importer/queue.wire';

export { QUEUE_STATUSES } from '../../../../appliance/importer/queue.wire';
export type { QueueStatus, ScanStatus } from '../../../../appliance/importer/queue.wire';
/** A queue item as GET /api/queue returns it. */
export type QueueItem = QueueItemJson;

/** docs/console-contract.md §7/§9: the console pages the queue by 20. */
export const QUEUE_PAGE_SIZE = 20;

export type QueueListParams = ListParams<QueueStatus>;

export const queueApi = {
  list: (p: QueueListParams, signal?: AbortSignal): Promise<Paged<QueueItem>> =>
    api.list<QueueItem>('/queue', {
      query: {
        limit: QUEUE_PAGE_SIZE,
        offset: (p.page - 1) * QUEUE_PAGE_SIZE,
        status: p.status || undefined,
        search: p.search.trim() || undefined,
      },
      signal,
    }),
  remove: (id: number) => api.delete<unknown>(`/queue/${id}`),
  retry: (id: number) => api.post<QueueItem>(`/queue/${id}/retry`),
  bulkDelete: (ids: number[]) => api.delete<QueueBulkDeleteResult>('/queue/bulk', { ids }),
  bulkRestart: (ids: number[]) => api.post<QueueBulkRestartResult>('/queue/bulk/restart', { ids }),
  clear: (status: 'completed' | 'failed') => api.delete<QueueClearResult>(`/queue/${status}`),
  scanStart: (path: string) => api.post<ScanStatus>('/import/scan', { path }),
  scanStatus: () => api.get<ScanStatus>('/import/scan/status'),
  scanCancel: () => api.delete<ScanStatus>('/import/scan'),
};
