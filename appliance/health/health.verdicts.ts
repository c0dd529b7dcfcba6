import type { HealthVerdicts } from '../vfs/types.js';
import type { HealthRecord } from './health.types.js';

/** Message ids a record knows unavailable: its last verdict's missing articles and reads' evidence since. */
export function unavailableIds(r: HealthRecord): Set<string> {
  return new Set([...r.missing.map((m) => m.messageId), ...r.readEvidence]);
}

/** Whether the VFS must hear of the record: its verdict is corrupted or it knows articles unavailable. */
export function hasBadNews(r: HealthRecord): boolean {
  return r.verdict === 'corrupted' || r.missing.length > 0 || r.readEvidence.length > 0;
}

/**
 * The VFS's port, kept in memory by the health store: the paths whose last verdict is corrupted and the articles
 * known unavailable per file. Only bad news is held (a healthy library costs nothing); it is filled from the
 * records the store's 'b' index names when it opens and changed by the store after each commit, so a listing asks a Set, never the
 * database (docs/health.md, "One store").
 */
export class VerdictIndex implements HealthVerdicts {
  private readonly bad = new Set<string>();
  private readonly marks = new Map<string, Set<string>>();

  corrupted(path: string): boolean {
    return this.bad.has(path);
  }

  unavailable(path: string, messageId: string): boolean {
    return this.marks.get(path)?.has(messageId) ?? false;
  }

  /** Forgets what it holds of `path` (the PostgreSQL store reads it again after another node wrote it). */
  forget(path: string): void {
    this.bad.delete(path);
    this.marks.delete(path);
  }

  /** Every path it holds bad news of. */
  paths(): string[] {
    return [...new Set([...this.bad, ...this.marks.keys()])];
  }

  /** A record was written: `before` is what was stored (undefined: new), `after` what is now (undefined: gone). */
  changed(before: HealthRecord | undefined, after: HealthRecord | undefined): void {
    if (before) {
      this.bad.delete(before.path);
      this.marks.delete(before.path);
    }
    if (!after) return;
    if (after.verdict === 'corrupted') this.bad.add(after.path);
    const ids = unavailableIds(after);
    if (ids.size > 0) this.marks.set(after.path, ids);
  }
}
