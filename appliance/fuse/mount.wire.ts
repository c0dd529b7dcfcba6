/**
 * The mount calls, /api/rclone/mount/* (docs/console-contract.md §7 Mount & RClone). A wire file: types only
 * (docs/contributing.md "Wire types").
 */

/** GET /api/rclone/mount/status. */
export interface MountStatus {
  mounted: boolean;
  mount_point: string;
  /** Why the last start failed, '' when it did not. */
  error: string;
}

/** POST /api/rclone/mount/start. */
export interface MountStartResult {
  status: MountStatus;
  message: string;
}

/** POST /api/rclone/mount/stop. */
export interface MountStopResult {
  message: string;
}
