/**
 * The RC connection test, POST /api/rclone/test (docs/console-contract.md §7 Mount & RClone). A wire file: types only
 * (docs/contributing.md "Wire types").
 */

/** What the console sends: the Mount & RClone form's RC fields; a field left out (or rc_pass empty) uses the saved one. */
export interface RcTestBody {
  rc_enabled?: boolean;
  rc_url?: string;
  rc_port?: number;
  rc_user?: string;
  rc_pass?: string;
  rc_options?: Record<string, unknown>;
  mount_enabled?: boolean;
  mount_options?: Record<string, unknown>;
}

export interface RcTestResult {
  success: boolean;
  /** '' on success. */
  error_message: string;
}
