import type { ConfigService } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import { RcloneClient, rcUrl } from './rclone.client.js';
import type { RcTestBody, RcTestResult } from './rclone.wire.js';

/** The fields of the test body the connection uses (rclone.wire.ts). */
export type RcTestInput = Pick<RcTestBody, 'rc_enabled' | 'rc_url' | 'rc_port' | 'rc_user' | 'rc_pass'>;

/** RC connection test and the vfs/refresh after each change of the tree when RC is enabled. */
export class RcloneService {
  constructor(
    private readonly config: ConfigService,
    private readonly logger: Logger,
    /** The VFS of Spool's own rclone mount on the rcd, '' when there is none (appliance/rclone/rclone-mount.ts). */
    private readonly mountedFs: () => string = () => '',
  ) {}

  /** POST /api/rclone/test: the posted settings, falling back to saved ones (rc_pass is write-only). */
  async test(input: RcTestInput): Promise<RcTestResult> {
    const saved = this.config.get().rclone;
    const client = new RcloneClient({
      url: rcUrl({ rc_url: input.rc_url ?? saved.rc_url, rc_port: input.rc_port ?? saved.rc_port }),
      user: input.rc_user ?? saved.rc_user,
      pass: input.rc_pass || saved.rc_pass,
      timeoutMs: 5_000,
    });
    try {
      await client.version();
      return { success: true, error_message: '' };
    } catch (err) {
      return { success: false, error_message: (err as Error).message };
    }
  }

  /** Fire-and-forget refresh of a changed directory; failures are logged, never thrown into the import. */
  refresh(dir: string): void {
    const c = this.config.get().rclone;
    if (!c.rc_enabled) return;
    new RcloneClient({ url: rcUrl(c), user: c.rc_user, pass: c.rc_pass })
      .refresh(dir, this.mountedFs())
      .catch((err: Error) => this.logger.warn('rclone vfs/refresh failed', { dir, error: err.message }));
  }
}
