import { featureKeys } from '../../../../lib/queryKeys';

const { all, key } = featureKeys('providers');

/** The providers' query keys: the pool's metrics, each provider's state among them (also on the dashboard). */
export const providerKeys = {
  all,
  poolMetrics: key('pool', 'metrics'),
  quotas: key('quotas'),
};
