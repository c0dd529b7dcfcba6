import type { SpoolConfig } from './schema.js';

/** The configuration document every node shares, as stored: node-local keys absent (node-local.ts). */
export interface SharedConfigRow {
  /** Bumped by each save of any node; 1 is the document the first node seeded. */
  version: number;
  doc: unknown;
}

/**
 * What the config service needs of the shared store when several nodes run on one PostgreSQL (`config-share.ts`
 * builds it; none on a single node). The service calls it inside its one-at-a-time writes.
 */
export interface SharedConfigLink {
  /**
   * Stores `next` (its shared part) for every node before this node takes it. Throws `StaleSharedConfig` when
   * another node saved since this node last adopted the shared document: the service then adopts the newer one
   * and prepares its save again on top of it, so two nodes saving at once lose neither change.
   */
  save(next: SpoolConfig): Promise<void>;
  /** The stored document when it is newer than the one this node runs; null otherwise. */
  newer(): Promise<SharedConfigRow | null>;
  /** This node now runs `version` (the service adopted it). */
  adopted(version: number): void;
}

/** Another node saved the shared configuration first (see `SharedConfigLink.save`). */
export class StaleSharedConfig extends Error {
  constructor() {
    super('Another node saved the configuration meanwhile');
    this.name = 'StaleSharedConfig';
  }
}
