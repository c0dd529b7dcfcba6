/**
 * File health, check and decide (docs/health.md "Check, decide, act"): a record per imported file, checks on the
 * pool's health lane (STAT sample plus BODY spot-checks), verdicts from evidence only, an age-tier schedule within a
 * STAT and BODY budget, manual checks. What acts on a verdict (the repair brake, PAR2, the arr) is appliance/repair,
 * handed in as `actions` (verdict-actions.port.ts).
 *
 *   const healthStore = openHealthStore(store); // before the VFS: its listings ask healthStore.verdicts
 *   const repairs = createRepairs({ store: healthStore, ledger, config, ..., wake: () => health.runner.wake() });
 *   const health = createHealth({ store: healthStore, config, vfs, client: pool, clock, logger, actions: repairs.actions });
 *   registerHealthRoutes(router, health, repairs.control); // appliance/api/health.routes.ts
 *   events.on('read.article.failed', (f) => health.service.readFailed(f)); // appliance/app/article-failures.ts
 * See docs/health.md.
 */
export { createHealth, runnerSettings, type HealthDeps, type HealthDomain } from './health.domain.js';
export { openHealthStore } from './health.store.js';
export type { HealthStore } from './health.port.js';
export { NO_ACTIONS, type CheckedVerdict, type VerdictActions } from './verdict-actions.port.js';
export type * from './health.wire.js';
