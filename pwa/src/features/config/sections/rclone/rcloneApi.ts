import { api } from '../../../../api/client';
import type { MountStartResult, MountStatus, MountStopResult } from '../../../../../../appliance/fuse/mount.wire';
import type { RcTestBody, RcTestResult } from '../../../../../../appliance/rclone/rclone.wire';

export type { MountStatus };

/** docs/console-contract.md §7 Mount & RClone calls. */
export const rcloneApi = {
  status: () => api.get<MountStatus>('/rclone/mount/status'),
  start: () => api.post<MountStartResult>('/rclone/mount/start'),
  stop: () => api.post<MountStopResult>('/rclone/mount/stop'),
  test: (payload: RcTestBody) => api.post<RcTestResult>('/rclone/test', payload),
};
