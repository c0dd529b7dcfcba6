import { api, type Paged } from '../../api/client';

/** Health statuses, in the order of the Status filter. */
export const HEALTH_STATUSES = ['pending', 'checking', 'healthy', 'partial', 'corrupted', 'repair_triggered'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** A health record as GET /health lists it. */
export interface HealthRecord {
  id: number;
  file_path: string;
  source_nzb_path: string | null;
  status: HealthStatus;
  last_error: string | null;
  /** Technical details of the last error (provider answers, article ids); text or a JSON object. */
  error_details: unknown;
  retry_count: number;
  max_retries: number;
  repair_retry_count: number;
  max_repair_retries: number;
  last_checked: string | null;
  created_at: string;
}

/** GET /health/worker/status. */
export interface HealthWorkerStatus {
  status: string;
  pending_manual_checks: number;
  total_files_checked: number;
  total_files_corrupted: number;
  total_runs_completed: number;
  last_run_time: string | null;
}

/** POST /health/check. */
export interface ManualCheck {
  file_path: string;
  source_nzb_path: string;
  priority: boolean;
}

/** The health list pages by 20. */
export const HEALTH_PAGE_SIZE = 20;

/** Sort keys the screen offers (File Path and Created At); the server default is created_at desc. */
export type HealthSortBy = 'file_path' | 'created_at';
export type SortOrder = 'asc' | 'desc';

export interface HealthListParams {
  page: number;
  status: HealthStatus | '';
  search: string;
  sortBy: HealthSortBy;
  sortOrder: SortOrder;
}

export const healthKeys = {
  all: ['health'] as const,
  list: (p: HealthListParams) => ['health', 'list', p] as const,
  worker: ['health', 'worker', 'status'] as const,
};

/** A file path is one URL segment in /health/{path}/... routes. */
const pathSegment = (filePath: string) => encodeURIComponent(filePath);

/** Counts in bulk and cleanup answers; the request size stands in if the server does not say. */
export type CountAnswer = Record<string, unknown> | null | undefined;

export const healthApi = {
  list: (p: HealthListParams, signal?: AbortSignal): Promise<Paged<HealthRecord>> =>
    api.list<HealthRecord>('/health', {
      query: {
        limit: HEALTH_PAGE_SIZE,
        offset: (p.page - 1) * HEALTH_PAGE_SIZE,
        status: p.status || undefined,
        search: p.search.trim() || undefined,
        sort_by: p.sortBy,
        sort_order: p.sortOrder,
      },
      signal,
    }),
  workerStatus: () => api.get<HealthWorkerStatus>('/health/worker/status'),
  remove: (id: number) => api.delete<unknown>(`/health/${id}`),
  retry: (filePath: string) => api.post<HealthRecord>(`/health/${pathSegment(filePath)}/retry`, { reset_status: true }),
  /** The screen never resets the repair retry count. */
  repair: (id: number) => api.post<HealthRecord>(`/health/${id}/repair`, { reset_repair_retry_count: false }),
  cancel: (id: number) => api.post<HealthRecord>(`/health/${id}/cancel`),
  bulkDelete: (filePaths: string[]) => api.post<CountAnswer>('/health/bulk/delete', { file_paths: filePaths }),
  bulkRestart: (filePaths: string[]) => api.post<CountAnswer>('/health/bulk/restart', { file_paths: filePaths }),
  cleanup: (olderThan: string) => api.delete<CountAnswer>('/health/cleanup', { older_than: olderThan }),
  addCheck: (check: ManualCheck) => api.post<HealthRecord>('/health/check', check),
};
