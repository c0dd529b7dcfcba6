import { api } from '../../../../api/client';

export interface MountStatus {
  mounted: boolean;
  mount_point: string;
  error: string;
}

export interface RcTestPayload {
  rc_enabled: boolean;
  rc_url: string;
  rc_port: number;
  rc_user: string;
  rc_pass?: string;
  rc_options: Record<string, unknown>;
  mount_enabled: boolean;
  mount_options: Record<string, unknown>;
}

/** docs/console-contract.md §7 Mount & RClone calls. */
export const rcloneApi = {
  status: () => api.get<MountStatus>('/rclone/mount/status'),
  start: () => api.post<{ status?: MountStatus; message?: string }>('/rclone/mount/start'),
  stop: () => api.post<{ message?: string }>('/rclone/mount/stop'),
  test: (payload: RcTestPayload) => api.post<{ success: boolean; error_message?: string }>('/rclone/test', payload),
};

export const mountStatusKey = ['rclone', 'mount', 'status'] as const;
