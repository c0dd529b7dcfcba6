import { api } from '../../../../api/client';
import type { AvailabilityResponse } from '../../../../../../appliance/providers/availability.wire';

/** docs/providers.md "Availability": GET /api/providers/availability (admin). */
export const availabilityApi = {
  get: () => api.get<AvailabilityResponse>('/providers/availability'),
};
