import type { PgDb } from '../store/pg/index.js';
import { BASELINE_MARK, type LifetimeBaseline, type QuotaRecord, type QuotaStateStore } from './quota.port.js';

/**
 * The quota meter's marks and baselines in PostgreSQL (`provider_quota_marks`): a claim is an insert that does
 * nothing when the row exists, so of several nodes crossing one threshold, one sends the notice.
 */
export class PgQuotaStateStore implements QuotaStateStore {
  constructor(private readonly db: PgDb) {}

  async claim(provider: string, mark: string): Promise<boolean> {
    const r = await this.db.query(
      'INSERT INTO provider_quota_marks (provider, mark) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [provider, mark],
    );
    return r.rowCount === 1;
  }

  async baseline(provider: string): Promise<LifetimeBaseline | undefined> {
    const r = await this.db.query<{ setting: string; counted: string }>(
      'SELECT setting, counted FROM provider_quota_marks WHERE provider = $1 AND mark = $2',
      [provider, BASELINE_MARK],
    );
    const row = r.rows[0];
    return row && { setting: Number(row.setting), counted: Number(row.counted) };
  }

  async setBaseline(provider: string, b: LifetimeBaseline): Promise<void> {
    await this.db.query(
      `INSERT INTO provider_quota_marks (provider, mark, setting, counted) VALUES ($1, $2, $3, $4)
       ON CONFLICT (provider, mark) DO UPDATE SET setting = $3, counted = $4`,
      [provider, BASELINE_MARK, b.setting, b.counted],
    );
  }

  async all(): Promise<QuotaRecord[]> {
    const r = await this.db.query<{ provider: string; mark: string; setting: string | null; counted: string | null }>(
      'SELECT provider, mark, setting, counted FROM provider_quota_marks ORDER BY provider, mark',
    );
    return r.rows.map((row) =>
      row.mark === BASELINE_MARK
        ? {
            provider: row.provider,
            mark: row.mark,
            baseline: { setting: Number(row.setting), counted: Number(row.counted) },
          }
        : { provider: row.provider, mark: row.mark },
    );
  }
}
