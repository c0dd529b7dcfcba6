import { z } from 'zod';
import type { Router } from '../http/router.js';
import { AppError } from '../errors/app-error.js';
import type { MountService } from '../fuse/mount.service.js';
import type { RcloneService } from '../rclone/rclone.service.js';

const rcTestSchema = z.object({
  rc_enabled: z.boolean().optional(),
  rc_url: z.string().optional(),
  rc_port: z.number().int().min(1).max(65535).optional(),
  rc_user: z.string().optional(),
  rc_pass: z.string().optional(),
  rc_options: z.record(z.string(), z.unknown()).optional(),
  mount_enabled: z.boolean().optional(),
  mount_options: z.record(z.string(), z.unknown()).optional(),
});

/** docs/console-contract.md §7 Mount & RClone. */
export function registerRcloneRoutes(
  router: Router,
  { mount, rclone }: { mount: MountService; rclone: RcloneService },
): void {
  router.get('/api/rclone/mount/status', { access: 'user' }, () => mount.status());
  router.post('/api/rclone/mount/start', { access: 'admin' }, async () => {
    try {
      return await mount.start();
    } catch (err) {
      throw new AppError('MOUNT_FAILED', 'Failed to start mount', (err as Error).message);
    }
  });
  router.post('/api/rclone/mount/stop', { access: 'admin' }, () => mount.stop());
  router.post('/api/rclone/test', { access: 'admin' }, async (ctx) => rclone.test(await ctx.json(rcTestSchema)));
}
