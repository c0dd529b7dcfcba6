import { AppError } from '../errors/app-error.js';
import type { Router } from '../http/router.js';
import type { NntpPool } from '../nntp/index.js';
import type { QuotaMeter } from '../providers/quota-meter.js';
import type { ProviderQuotasResponse, ProviderReprobeResponse } from '../providers/quota.wire.js';

/**
 * What the console's provider list shows beside each entry (docs/nntp.md "Provider states", "Quotas and expiry"):
 * each provider's quota use and expiry, and the manual re-probe of a provider that is down. Admin only, like the
 * provider list.
 */
export function registerProviderStatusRoutes(
  router: Router,
  s: { pool: Pick<NntpPool, 'reprobe' | 'metrics'>; quota: Pick<QuotaMeter, 'view'> },
): void {
  const admin = { access: 'admin' } as const;
  router.get('/api/providers/quotas', admin, () => ({ providers: s.quota.view() }) satisfies ProviderQuotasResponse);
  router.post('/api/providers/:id/reprobe', admin, (ctx) => {
    const id = ctx.params.id as string;
    const provider = s.pool.metrics().providers.find((p) => p.id === id && p.state !== 'removed');
    if (!provider) throw new AppError('NO_SUCH_RECORD', `No provider with id "${id}"`);
    const probing = s.pool.reprobe(id);
    return { id, probing, state: provider.state, reason: provider.reason } satisfies ProviderReprobeResponse;
  });
}
