/**
 * File health: a record per imported file, checks on the pool's health lane (STAT sample plus BODY spot-checks),
 * verdicts from evidence only, an age-based schedule, manual checks, and repair through the arrs behind a breaker.
 *
 *   const health = createHealth({ store, config, vfs, client: pool, clock, logger, repairer });
 *   registerHealthRoutes(router, health); // appliance/api/health.routes.ts
 *   reader.on('article-failure', (f) => health.service.readFailed(f));
 * See docs/health.md.
 */
export { createHealth, runnerSettings, type HealthDeps, type HealthDomain } from './health.domain.js';
export type { FileRepairer, RepairOutcome } from './repair.loop.js';
export type * from './health.wire.js';
