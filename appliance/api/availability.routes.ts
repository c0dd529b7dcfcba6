import type { Router } from '../http/router.js';
import type { ProviderAvailability } from '../providers/availability.js';
import type { AvailabilityResponse } from '../providers/availability.wire.js';

/**
 * Availability from real traffic (docs/providers.md, "Availability"): per provider, the share of the articles asked
 * of it that it had, by post age, over 7 and 30 days. Admin only, like the provider list.
 */
export function registerAvailabilityRoutes(
  router: Router,
  s: { availability: Pick<ProviderAvailability, 'view'> },
): void {
  router.get(
    '/api/providers/availability',
    { access: 'admin' },
    () => ({ providers: s.availability.view() }) satisfies AvailabilityResponse,
  );
}
