import type { HealthDomain } from '../../health/index.js';
import type { FitService } from '../../providers/fit.service.js';
import type { AppCore } from '../core.js';
import type { Importer } from '../importer.js';
import { built, type Built } from '../lifetime.js';
import { gateWork, openLeadership, type Leadership } from './leadership.js';
import { listenToOtherNodes } from './signals.js';

/**
 * Whether this node leads (docs/architecture.md, "Several nodes"): the leader lease on PostgreSQL, always on LMDB.
 * `timing`: the lease's (tests of a handover shorten them).
 */
export function createLeadership(
  { stores, nodeId, logger }: AppCore,
  timing?: { retryMs?: number; heartbeatMs?: number },
): Built<Leadership> {
  const lead = openLeadership(stores, nodeId, logger.child('leader'), timing);
  return built(lead.leadership, lead.close);
}

/**
 * The background work, run only while this node leads: the imports (runner, watch folder, retention), the health
 * worker and the fit report's samplers (one node STATs the candidates, within their budgets). Another node's queued NZB wakes the runner here, and a pause or resume asked of another node applies here.
 */
export function createBackground(
  { stores, logger }: AppCore,
  leadership: Leadership,
  importer: Importer,
  health: HealthDomain,
  fit: FitService,
): Built<void> {
  // Not awaited: a lost lead must stop the imports at once, not after health's reconcile at start.
  const healthWork = { name: 'health', start: () => void health.worker.start(), stop: health.worker.stop };
  const fitWork = { name: 'fit', start: () => fit.start(), stop: () => fit.stop() };
  const gate = gateWork(leadership, [importer.background, healthWork, fitWork], logger.child('leader'));
  return built(undefined, gate.stop, listenToOtherNodes(stores.pg, importer.runner));
}
