import type { ConfigService } from '../config/index.js';
import { validationFailed } from '../errors/field-errors.js';
import type { Router } from '../http/router.js';

/**
 * /api/config (docs/console-contract.md §7 Configuration). Admin only. Writes answer `{config, restart_required}`: the new redacted
 * config and the restart-only fields changed since start, for the console's restart banner.
 */
export function registerConfigRoutes(router: Router, deps: { config: ConfigService }): void {
  const { config } = deps;
  const admin = { access: 'admin' } as const;

  router.get('/api/config', admin, () => config.redacted());
  router.put('/api/config', admin, async (ctx) => config.replace(await ctx.json()));
  router.patch('/api/config/:section', admin, async (ctx) => {
    const body = await ctx.json<{ section?: unknown; config?: unknown }>();
    return config.patchSection(sectionOf(ctx.params.section as string, body), body?.config);
  });
  router.post('/api/config/validate', admin, async (ctx) => config.validate(await ctx.json()));
  router.post('/api/config/reload', admin, () => config.reload());
}

/** The payload is `{section, config}` (docs/console-contract.md §7); its section must name the one in the path. */
function sectionOf(pathSection: string, body: { section?: unknown } | null): string {
  const given = body && typeof body === 'object' ? body.section : undefined;
  if (given !== undefined && given !== pathSection) {
    throw validationFailed([{ field: 'section', message: `Must match the section in the path ("${pathSection}")` }]);
  }
  return pathSection;
}
