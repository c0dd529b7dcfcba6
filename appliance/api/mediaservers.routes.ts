import { z } from 'zod';
import type { Router } from '../http/router.js';
import type { MediaServersService } from '../mediaservers/index.js';
import { MEDIA_SERVER_KINDS } from '../mediaservers/mediaservers.wire.js';

const TestInput = z.object({
  kind: z.enum(MEDIA_SERVER_KINDS, 'Must be plex, jellyfin or emby'),
  url: z.url({ protocol: /^https?$/, error: 'Must be an http:// or https:// URL' }),
  token: z.string().default(''),
  /** A saved server: with an empty token, its stored token is used. */
  name: z.string().optional(),
});

/** /api/mediaservers (docs/mediaservers.md). Admin only: the test reaches out to a URL the caller chooses. */
export function registerMediaServersRoutes(router: Router, deps: { mediaServers: MediaServersService }): void {
  router.post('/api/mediaservers/test', { access: 'admin' }, async (ctx) =>
    deps.mediaServers.test(await ctx.json(TestInput)),
  );
  router.get('/api/mediaservers/activity', { access: 'admin' }, () => deps.mediaServers.recent());
}
