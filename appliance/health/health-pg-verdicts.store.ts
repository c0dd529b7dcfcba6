import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging/logger.js';
import type { PgDb } from '../store/pg/index.js';
import type { HealthVerdicts } from '../vfs/types.js';
import type { HealthRecord } from './health.types.js';
import { hasBadNews, VerdictIndex } from './health.verdicts.js';
import type { RecordChange } from './health-store.base.js';

/** The channel a commit that changed a verdict is announced on (docs/health.md, "One store"). */
export const HEALTH_CHANNEL = 'spool_health';
/** A NOTIFY payload must stay under 8000 bytes: a longer list of paths is sent as this marker. */
const RELOAD = 'reload';
const PAYLOAD_MAX = 7_500;
/** How long opening waits for the node's listening connection before it reads. */
const LISTEN_MS = 5_000;

/** A record written by a commit: [before, after] (undefined: it was new / it is gone). */

/**
 * The VFS's verdicts on a node of a PostgreSQL store, answered from memory as on LMDB (a `VerdictIndex`). This
 * node's commits change it at once; another node's commit sends `<node> <JSON paths>` (or `<node> reload`) on
 * `spool_health` in its transaction, and each node that hears it reads those paths' records again. A node whose
 * listening connection came back reads every record with bad news again. Reads run one at a time, so a later read
 * never lands before an earlier one; a path this node wrote while a read ran is read once more.
 */
export class PgVerdicts implements HealthVerdicts {
  /** This node's tag in payloads (its own notifications are not read again). */
  readonly node = randomUUID().slice(0, 8);
  private readonly index = new VerdictIndex();
  /** Local applies so far, and the count at each path's last one (a read started before it must not undo it). */
  private applied = 0;
  private readonly touched = new Map<string, number>();
  private readonly pending = new Set<string>();
  private reloadWanted = false;
  private running: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  private unlisten: () => void = () => undefined;

  constructor(
    private readonly db: PgDb,
    private readonly logger?: Logger,
  ) {}

  corrupted(path: string): boolean {
    return this.index.corrupted(path);
  }

  unavailable(path: string, messageId: string): boolean {
    return this.index.unavailable(path, messageId);
  }

  /** Listens (waiting, bounded, until the node listens), then loads every record with bad news. */
  async open(): Promise<void> {
    this.unlisten = this.db.listen(
      HEALTH_CHANNEL,
      (payload) => this.heard(payload),
      () => this.want(true),
    );
    if (!(await this.db.listening(LISTEN_MS)))
      this.logger?.warn('health notifications not heard yet; verdicts follow other nodes once they are');
    const rows = await this.db.query<{ record: HealthRecord }>('SELECT record FROM health_records WHERE bad');
    for (const { record } of rows.rows) this.index.changed(undefined, record);
  }

  /** This node committed `changes`: they apply at once. */
  committed(changes: readonly RecordChange[]): void {
    this.applied++;
    // Only a read running now could undo them: with none, nothing is kept (a lone node keeps no list of paths).
    const reading = this.running !== null;
    for (const [before, after] of changes) {
      this.index.changed(before, after);
      if (reading) for (const r of [before, after]) if (r) this.touched.set(r.path, this.applied);
    }
  }

  /** Paths noted as written during a read (none once reads are done). */
  get noted(): number {
    return this.touched.size;
  }

  /** The payload a commit sends (inside its transaction), or null when no verdict changed. */
  payloadOf(changes: readonly RecordChange[]): string | null {
    const paths = new Set<string>();
    for (const [before, after] of changes)
      if ((before && hasBadNews(before)) || (after && hasBadNews(after)))
        for (const r of [before, after]) if (r) paths.add(r.path);
    if (paths.size === 0) return null;
    const payload = `${this.node} ${JSON.stringify([...paths])}`;
    return Buffer.byteLength(payload) < PAYLOAD_MAX ? payload : `${this.node} ${RELOAD}`;
  }

  close(): void {
    this.closed = true;
    this.unlisten();
    if (this.retry) clearTimeout(this.retry);
  }

  /** Waits until the reads asked for so far are done (tests, close). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private heard(payload: string): void {
    const space = payload.indexOf(' ');
    const [from, body] = [payload.slice(0, space), payload.slice(space + 1)];
    if (from === this.node) return;
    if (body === RELOAD) return this.want(true);
    try {
      const paths = JSON.parse(body) as unknown;
      if (!Array.isArray(paths)) throw new Error('not a list');
      for (const p of paths) if (typeof p === 'string') this.pending.add(p);
      this.want(false);
    } catch {
      this.logger?.warn('unreadable health notification; reading every verdict again', { payload: body.slice(0, 80) });
      this.want(true);
    }
  }

  private want(reload: boolean): void {
    if (reload) this.reloadWanted = true;
    if (this.closed || this.running || this.retry) return;
    this.running = this.drain().finally(() => (this.running = null));
  }

  private async drain(): Promise<void> {
    while (!this.closed && (this.reloadWanted || this.pending.size > 0)) {
      const full = this.reloadWanted;
      const paths = [...this.pending];
      this.reloadWanted = false;
      this.pending.clear();
      const start = this.applied;
      try {
        const rows = full
          ? await this.db.query<{ record: HealthRecord }>('SELECT record FROM health_records WHERE bad')
          : await this.db.query<{ record: HealthRecord }>(
              'SELECT record FROM health_records WHERE bad AND path = ANY($1::text[])',
              [paths],
            );
        // A path this node wrote while the read ran keeps what it wrote, and is read again.
        const fresh = (p: string) => (this.touched.get(p) ?? 0) <= start || (this.pending.add(p), false);
        for (const p of full ? this.index.paths() : paths) if (fresh(p)) this.index.forget(p);
        for (const { record } of rows.rows)
          if (fresh(record.path)) {
            this.index.forget(record.path);
            this.index.changed(undefined, record);
          }
      } catch (err) {
        if (this.closed) return;
        if (full) this.reloadWanted = true;
        for (const p of paths) this.pending.add(p);
        this.logger?.warn('reading health verdicts failed; trying again', { error: String(err) });
        this.retry = setTimeout(() => {
          this.retry = null;
          this.want(false);
        }, 1_000);
        this.retry.unref();
        return;
      }
    }
    this.touched.clear();
  }
}
