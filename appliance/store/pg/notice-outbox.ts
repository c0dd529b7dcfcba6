import type { Logger } from '../../logging/logger.js';
import type { PgDb } from './pg-db.js';

/** The largest notice payload PostgreSQL takes is 7999 bytes; callers keep theirs under this. */
export const MAX_NOTICE_BYTES = 7500;

/** Notices waiting to be sent past this are dropped (the database is slow or away). */
const MAX_WAITING = 2000;

/** Notices sent per statement. */
const BATCH = 100;

/**
 * Sends notices on one channel in the order they came, one statement per batch (unnest keeps the order; notices of
 * one statement reach every listener together, in order). For hints only: a failed send is logged once per outage
 * and its batch dropped, and past MAX_WAITING new notices are dropped, so a slow database never holds the sender up.
 */
export class NoticeOutbox {
  private waiting: string[] = [];
  private sending = false;
  private failing = false;
  private closed = false;

  constructor(
    private readonly db: Pick<PgDb, 'query'>,
    private readonly channel: string,
    private readonly logger: Logger,
    /** What the notices are, in the log lines ('live events'). */
    private readonly what = 'notices',
  ) {}

  add(text: string): void {
    if (this.closed) return;
    if (this.waiting.length >= MAX_WAITING) {
      this.logger.debug(`${this.what}: behind; one was dropped`, { waiting: this.waiting.length });
      return;
    }
    this.waiting.push(text);
    if (!this.sending) void this.pump();
  }

  close(): void {
    this.closed = true;
    this.waiting = [];
  }

  private async pump(): Promise<void> {
    this.sending = true;
    while (this.waiting.length > 0 && !this.closed) {
      const batch = this.waiting.splice(0, BATCH);
      try {
        await this.db.query('SELECT pg_notify($1, notice) FROM unnest($2::text[]) AS notice', [this.channel, batch]);
        if (this.failing) this.logger.info(`${this.what} reach the other nodes again`);
        this.failing = false;
      } catch (err) {
        if (!this.failing)
          this.logger.warn(`${this.what} cannot reach the other nodes; dropping them until the database answers`, {
            error: err instanceof Error ? err.message : String(err),
          });
        this.failing = true;
      }
    }
    this.sending = false;
  }
}
