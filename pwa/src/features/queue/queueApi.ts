import { api, type Paged } from '../../api/client';

export const QUEUE_STATUSES = ['pending', 'processing', 'completed', 'failed', 'retrying'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/** Spec §3 Queue item (plus the timestamps the server also sends). */
export interface QueueItem {
  id: number;
  nzb_path: string;
  target_path: string | null;
  category: string | null;
  file_size: number;
  status: QueueStatus;
  retry_count: number;
  max_retries?: number;
  error_message: string | null;
  created_at?: string;
  updated_at: string;
}

/** Spec §3 Scan status. */
export interface ScanStatus {
  status: 'idle' | 'scanning' | 'canceling';
  path: string;
  files_found: number;
  files_added: number;
  /** NZBs skipped because the same bytes were queued before. */
  files_skipped?: number;
  current_file: string;
  last_error: string | null;
}

/** Spec §7/§9: the console pages the queue by 20. */
export const QUEUE_PAGE_SIZE = 20;

export interface QueueListParams {
  page: number;
  status: QueueStatus | '';
  search: string;
}

export const queueKeys = {
  all: ['queue'] as const,
  list: (p: QueueListParams) => ['queue', 'list', p] as const,
  scanStatus: ['import', 'scan', 'status'] as const,
};

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
  bulkDelete: (ids: number[]) => api.delete<{ deleted_count: number; skipped_ids: number[] }>('/queue/bulk', { ids }),
  bulkRestart: (ids: number[]) =>
    api.post<{ restarted_count: number; skipped_ids: number[] }>('/queue/bulk/restart', { ids }),
  clear: (status: 'completed' | 'failed') => api.delete<{ deleted_count: number }>(`/queue/${status}`),
  scanStart: (path: string) => api.post<ScanStatus>('/import/scan', { path }),
  scanStatus: () => api.get<ScanStatus>('/import/scan/status'),
  scanCancel: () => api.delete<ScanStatus>('/import/scan'),
};
