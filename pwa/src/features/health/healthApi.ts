import { api, type Paged } from '../../api/client';
import type { ListParams } from '../../components/listParams';
import type {
  HealthBulkDeleteResult,
  HealthBulkRestartResult,
  HealthCleanupResult,
  HealthRecordJson,
  HealthScheduleJson,
  HealthSortKey,
  HealthStatus,
  HealthWorkerStatusJson,
  ManualCheckBody,
  RepairBrakeJson,
  RepairHistoryJson,
  SortOrder,
} from '../../../../appliance/health/health.wire';

export { HEALTH_STATUSES, REPAIR_STEP_LABELS } from '../../../../appliance/health/health.wire';
export type { HealthStatus } from '../../../../appliance/health/health.wire';

/** A health record as GET /health lists it. */
export type HealthRecord = HealthRecordJson;
/** GET /health/schedule (docs/console-contract.md §10). */
export type HealthSchedule = HealthScheduleJson;
/** GET /health/worker/status. */
export type HealthWorkerStatus = HealthWorkerStatusJson;

/** POST /health/check as the console sends it: both paths (the contract requires them) and the priority. */
export type ManualCheck = Required<ManualCheckBody>;

/** GET /health/repairs: the repair brake. */
export type RepairBrake = RepairBrakeJson;
/** One line of GET /health/repairs/history. */
export type RepairHistoryEntry = RepairHistoryJson;
/** The repair history pages by 10 on the Health screen. */
export const REPAIR_PAGE_SIZE = 10;

/** The health list pages by 20. */
export const HEALTH_PAGE_SIZE = 20;

/** Sort keys the screen offers (File Path and Created At); the server default is created_at desc. */
export type HealthSortBy = Extract<HealthSortKey, 'file_path' | 'created_at'>;
export type { SortOrder };

export type HealthListParams = ListParams<HealthStatus> & { sortBy: HealthSortBy; sortOrder: SortOrder };

/** A file path is one URL segment in /health/{path}/... routes. */
const pathSegment = (filePath: string) => encodeURIComponent(filePath);

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
  schedule: () => api.get<HealthSchedule>('/health/schedule'),
  remove: (id: number) => api.delete<unknown>(`/health/${id}`),
  retry: (filePath: string) => api.post<HealthRecord>(`/health/${pathSegment(filePath)}/retry`, { reset_status: true }),
  /** The screen never resets the repair retry count. */
  repair: (id: number) => api.post<HealthRecord>(`/health/${id}/repair`, { reset_repair_retry_count: false }),
  cancel: (id: number) => api.post<HealthRecord>(`/health/${id}/cancel`),
  bulkDelete: (filePaths: string[]) =>
    api.post<HealthBulkDeleteResult>('/health/bulk/delete', { file_paths: filePaths }),
  bulkRestart: (filePaths: string[]) =>
    api.post<HealthBulkRestartResult>('/health/bulk/restart', { file_paths: filePaths }),
  cleanup: (olderThan: string) => api.delete<HealthCleanupResult>('/health/cleanup', { older_than: olderThan }),
  addCheck: (check: ManualCheck) => api.post<HealthRecord>('/health/check', check),
  brake: () => api.get<RepairBrake>('/health/repairs'),
  /** Admins only: releases the repair brake. */
  resumeRepairs: () => api.post<RepairBrake>('/health/repairs/resume'),
  history: (page: number, signal?: AbortSignal): Promise<Paged<RepairHistoryEntry>> =>
    api.list<RepairHistoryEntry>('/health/repairs/history', {
      query: { limit: REPAIR_PAGE_SIZE, offset: (page - 1) * REPAIR_PAGE_SIZE },
      signal,
    }),
};
