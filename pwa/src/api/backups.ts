import { api, API_BASE } from './client';
import type { BackupItem, BackupList, RestoreReport, SchedulePreview } from '../../../appliance/backup/backup.wire';

const one = (name: string) => `/system/backups/${encodeURIComponent(name)}`;

/** Backups (docs/console-contract.md "Backups", docs/backups.md); admin only. */
export const backupsApi = {
  list: () => api.get<BackupList>('/system/backups'),
  create: () => api.post<BackupItem>('/system/backups'),
  /** A schedule read by the server's cron parser: its refusal, or its next run times. */
  preview: (expression: string) => api.get<SchedulePreview>('/system/backups/schedule', { query: { expression } }),
  upload: (file: File) => api.post<BackupItem>('/system/backups/upload', file),
  keep: (name: string, keep_forever: boolean) => api.patch<BackupItem>(one(name), { keep_forever }),
  remove: (name: string) => api.delete<unknown>(one(name)),
  restore: (name: string) => api.post<RestoreReport>(`${one(name)}/restore`),
  /** The download link (the browser saves the streamed archive itself). */
  downloadUrl: (name: string) => `${API_BASE}${one(name)}/download`,
};
