import type { Store } from './store.js';

/** One schema step of one domain: done whole in one transaction, or in bounded pieces. */
export type Migration = WholeMigration | BatchedMigration;

/**
 * A step in one piece: `up` runs inside a write transaction together with the version bump, so the step is applied
 * entirely or not at all, and a step already recorded is never run again (idempotent re-runs).
 */
export interface WholeMigration {
  version: number;
  description: string;
  up(store: Store): void;
}

/**
 * A step too big for one transaction (rewriting every record of a large database): `batch` does one bounded piece
 * inside its own write transaction, starting after `after` (undefined for the first piece), and returns where the
 * next piece starts, or null when nothing is left. What it returns is kept in the store in the same transaction as
 * the piece's writes, so a process killed mid-way resumes after the last committed piece; the version is bumped in
 * the transaction of the last piece. A piece must be safe to do twice.
 */
export interface BatchedMigration {
  version: number;
  description: string;
  batch(store: Store, after: unknown): unknown;
}

export interface MigrationResult {
  scope: string;
  from: number;
  to: number;
  applied: string[];
}

const versionKey = (scope: string) => `schema_version:${scope}`;
/** Where a batched step keeps where its next piece starts. */
const progressKey = (scope: string, version: number) => `migration_progress:${scope}:${version}`;

export function schemaVersion(store: Store, scope: string): number {
  const v = store.meta.get(versionKey(scope));
  return typeof v === 'number' ? v : 0;
}

/**
 * Brings `scope` (a domain name: 'auth', 'queue', ...) up to the newest migration. Versions must be 1, 2, 3...
 * A store written by a newer Spool (version above the newest known step) is refused rather than guessed at.
 */
export function migrate(store: Store, scope: string, migrations: readonly Migration[]): MigrationResult {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`Migrations of '${scope}' must be numbered 1..n; found ${m.version} at ${i + 1}`);
  });
  const from = schemaVersion(store, scope);
  const newest = sorted.length;
  if (from > newest) {
    throw new Error(
      `The store's '${scope}' schema is version ${from}, newer than this Spool knows (${newest}); use a newer Spool or a fresh metadata.root_path`,
    );
  }
  const applied: string[] = [];
  for (const m of sorted.slice(from)) {
    if ('batch' in m) {
      if (runBatched(store, scope, m)) applied.push(m.description);
      continue;
    }
    store.transaction(() => {
      // Re-read inside the transaction: another process may have applied this step meanwhile.
      if (schemaVersion(store, scope) >= m.version) return;
      m.up(store);
      store.meta.putSync(versionKey(scope), m.version);
      applied.push(m.description);
    });
  }
  return { scope, from, to: schemaVersion(store, scope), applied };
}

/** Runs a batched step piece by piece, each in its own transaction; true when this call recorded it. */
function runBatched(store: Store, scope: string, m: BatchedMigration): boolean {
  const progress = progressKey(scope, m.version);
  for (;;) {
    const outcome = store.transaction((): 'done' | 'recorded' | 'more' => {
      if (schemaVersion(store, scope) >= m.version) return 'done';
      const next = m.batch(store, store.meta.get(progress));
      if (next !== null && next !== undefined) {
        store.meta.putSync(progress, next);
        return 'more';
      }
      store.meta.removeSync(progress);
      store.meta.putSync(versionKey(scope), m.version);
      return 'recorded';
    });
    if (outcome !== 'more') return outcome === 'recorded';
  }
}
