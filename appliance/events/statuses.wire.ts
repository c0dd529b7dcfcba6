/**
 * The statuses events carry (live.wire.ts): a queue item's and a health record's. The importer and health domains
 * own their meaning and re-export them from their wire files (importer/queue.wire.ts, health/health.wire.ts); they
 * stand here so that the event map names no domain: domains emit events, events know no domain (docs/architecture.md
 * "Layers"). A wire file: constants and types only.
 */

export const QUEUE_STATUSES = ['pending', 'processing', 'repairing', 'completed', 'failed', 'retrying'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

export const HEALTH_STATUSES = ['pending', 'checking', 'healthy', 'partial', 'corrupted', 'repair_triggered'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];
