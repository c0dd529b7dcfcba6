import { z } from 'zod';
import { AppError } from '../errors/app-error.js';
import { validationFailed } from '../errors/field-errors.js';
import type { Router } from '../http/router.js';
import { NOTIFY_TARGET_TYPES, type Notifier, type TargetAddress } from '../notify/index.js';
import { NOTIFY_TEST_PATH } from '../notify/notify.wire.js';
import { MASKED_SECRET, type ConfigService } from '../config/index.js';

const TestInput = z.object({
  name: z.string().optional(),
  type: z.enum(NOTIFY_TARGET_TYPES, 'Must be webhook, ntfy, discord or apprise').optional(),
  url: z.string().optional(),
  /** Empty or masked: the stored token of the target named `name`. */
  token: z.string().optional(),
});

/** /api/notifications (docs/notifications.md). Admin only: the test reaches out to a URL the caller chooses. */
export function registerNotificationsRoutes(router: Router, deps: { config: ConfigService; notifier: Notifier }) {
  router.post(NOTIFY_TEST_PATH, { access: 'admin' }, async (ctx) => {
    const input = await ctx.json(TestInput);
    return deps.notifier.test(targetOf(input, deps.config));
  });
}

/** The target to test: the one given (type and url), else the saved one named `name`. */
function targetOf(input: z.infer<typeof TestInput>, config: ConfigService): TargetAddress {
  const saved = config.get().notifications.targets.find((t) => t.name === input.name);
  if (!input.url) {
    if (!saved) throw new AppError('NOT_FOUND', `No notification target named "${input.name ?? ''}"`);
    return { type: saved.type, url: saved.url, token: saved.token };
  }
  if (!input.type) throw validationFailed([{ field: 'type', message: 'Required with url' }]);
  if (!/^https?:\/\/[^/]/i.test(input.url) || !URL.canParse(input.url))
    throw validationFailed([{ field: 'url', message: 'Must be an http:// or https:// URL' }]);
  const given = input.token && input.token !== MASKED_SECRET ? input.token : undefined;
  return { type: input.type, url: input.url, token: given ?? saved?.token ?? '' };
}
