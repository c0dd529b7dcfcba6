import type { Store } from './store.js';

/**
 * One schema step of one domain. `up` runs inside a write transaction together with the version bump, so a step
 * is applied entirely or not at all, and a step already recorded is never run again (idempotent re-runs).
 */
export interface Migration {
  version: number;
  description: string;
  up(store: Store): void;
}

export interface MigrationResult {
  scope: string;
  from: number;
  to: number;
  applied: string[];
}

const versionKey = (scope: string) => `schema_version:${scope}`;

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
