/**
 * File health: a record per imported file, checks on the pool's health lane (STAT sample plus BODY spot-checks),
 * verdicts from evidence only, an age-tier schedule within a STAT and BODY budget, manual checks, and repair through the arrs behind a breaker.
 *
 *   const healthStore = openHealthStore(store); // before the VFS: its listings ask healthStore.verdicts
 *   const health = createHealth({ store: healthStore, config, vfs, client: pool, clock, logger, repairer });
 *   registerHealthRoutes(router, health); // appliance/api/health.routes.ts
 *   events.on('read.article.failed', (f) => health.service.readFailed(f)); // appliance/app/article-failures.ts
 * See docs/health.md.
 */
export { createHealth, runnerSettings, type HealthDeps, type HealthDomain } from './health.domain.js';
export { openHealthStore } from './health.store.js';
export type { HealthStore } from './health.port.js';
export type * from './health.wire.js';
