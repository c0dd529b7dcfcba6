import { z } from 'zod';
import type { ConfigService } from '../config/index.js';
import type { Router } from '../http/router.js';
import { caPemError, checkProvider, type ProviderCheckResult } from '../nntp/index.js';

/**
 * /api/providers (docs/console-contract.md §7 Configuration). Admin only. The provider list lives in the config file; the pool picks up
 * every change through the config's change event, so a save here applies live.
 */
export function registerProviderRoutes(router: Router, deps: { config: ConfigService }): void {
  const { config } = deps;
  const admin = { access: 'admin' } as const;

  router.post('/api/providers/test', admin, async (ctx) => runTest(config, await ctx.json(TestInput)));
  router.post('/api/providers', admin, async (ctx) => config.addProvider(await ctx.json()));
  router.put('/api/providers/reorder', admin, async (ctx) => {
    const { provider_ids } = await ctx.json(ReorderInput);
    return config.reorderProviders(provider_ids);
  });
  router.put('/api/providers/:id', admin, async (ctx) =>
    config.updateProvider(ctx.params.id as string, await ctx.json()),
  );
  router.delete('/api/providers/:id', admin, async (ctx) => {
    await config.deleteProvider(ctx.params.id as string);
    return { deleted: ctx.params.id };
  });
}

// Host, username and password reach NNTP command lines: a line break or NUL would inject a command.
// eslint-disable-next-line no-control-regex
const lineSafe = z.string().regex(/^[^\r\n\u0000]*$/, 'Must not contain line breaks or NUL characters');

const TestInput = z.strictObject({
  host: lineSafe.trim().min(1, 'Host is required'),
  port: z.number().int().min(1).max(65535).default(119),
  username: lineSafe.default(''),
  password: lineSafe.default(''),
  tls: z.boolean().default(false),
  insecure_tls: z.boolean().default(false),
  ca: z
    .string()
    .default('')
    .superRefine((pem, ctx) => {
      const error = caPemError(pem);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
  /** Edit mode: an empty password means "the one already saved for this provider". */
  id: z.string().optional(),
  // The rest of the provider form may come along; it does not change how a connection is tested.
  max_connections: z.number().int().min(1).max(50).optional(),
  enabled: z.boolean().optional(),
  is_backup_provider: z.boolean().optional(),
});

const ReorderInput = z.strictObject({ provider_ids: z.array(z.string()) });

function runTest(config: ConfigService, input: z.infer<typeof TestInput>): Promise<ProviderCheckResult> {
  let password = input.password;
  if (password === '' && input.id) {
    password = config.get().providers.find((p) => p.id === input.id)?.password ?? '';
  }
  return checkProvider({ ...input, password });
}
