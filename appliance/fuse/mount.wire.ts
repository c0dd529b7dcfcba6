/**
 * The mount calls, /api/rclone/mount/* (docs/console-contract.md §7 Mount & RClone). A wire file: types only
 * (docs/contributing.md "Wire types").
 */

/** GET /api/rclone/mount/status. */
export interface MountStatus {
  mounted: boolean;
  mount_point: string;
  /**
   * Why the last start failed, or, while mounted, a setup problem of the mount (e.g. not propagated out of the
   * container: appliance/fuse/mount-setup.ts); '' when neither.
   */
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
