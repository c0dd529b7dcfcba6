/**
 * Prometheus metrics (docs/metrics.md): SpoolMetrics holds a registry of its own; appliance/app/metrics.ts feeds it
 * from the event bus and the pool, and appliance/api/metrics.routes.ts serves it at GET /metrics.
 */
export { SpoolMetrics } from './spool-metrics.js';
export type { MetricsSources } from './collectors.js';
export { FRONTS, READER_CLASSES } from './labels.js';
