import { z } from 'zod';
import type { Router } from '../http/router.js';

const restartSchema = z.strictObject({ force: z.boolean({ error: 'force must be true or false' }).optional() });

export interface SystemRouteDeps {
  /** Asks the process to rebuild the app from the config file once this answer is out. */
  requestRestart(force: boolean): void;
}

/** Spec §7 "System": restart. (Pool metrics are registered by the NNTP domain.) */
export function registerSystemRoutes(router: Router, deps: SystemRouteDeps): void {
  router.post('/api/system/restart', { access: 'admin' }, async (ctx) => {
    const { force = false } = await ctx.json(restartSchema);
    // Answer first: the restart closes this very server. setImmediate lets the reply leave the socket.
    setImmediate(() => deps.requestRestart(force));
    return { message: 'Server restart initiated' };
  });
}
