import { z } from 'zod';
import type { Router } from '../http/router.js';

const restartSchema = z.strictObject({ force: z.boolean({ error: 'force must be true or false' }).optional() });

export interface SystemRouteDeps {
  /** Asks the process to rebuild the app from the config file once this answer is out. */
  requestRestart(force: boolean): void;
}

/** /ping and docs/console-contract.md §7 "System": restart. (Pool metrics are registered by the NNTP domain.) */
export function registerSystemRoutes(router: Router, deps: SystemRouteDeps): void {
  // Anonymous and cheap, for health checks and arrs; raw {status} like Sonarr's, no envelope.
  router.get('/ping', { access: 'public' }, (ctx) =>
    ctx.reply.header('Cache-Control', 'no-store').json(200, { status: 'OK' }),
  );

  router.post('/api/system/restart', { access: 'admin' }, async (ctx) => {
    const { force = false } = await ctx.json(restartSchema);
    // Answer first: the restart closes this very server. setImmediate lets the reply leave the socket.
    setImmediate(() => deps.requestRestart(force));
    return { message: 'Server restart initiated' };
  });
}
