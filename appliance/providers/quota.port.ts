/**
 * What the quota meter keeps (docs/nntp.md "Quotas and expiry"): which notices went out, so each is sent once per
 * threshold and period across restarts and nodes, and the count a lifetime quota starts from. LMDB implements it
 * (quota.store.ts), and PostgreSQL (quota-pg.store.ts).
 */

/** Where a lifetime quota's "already used" figure was set: the setting, and the bytes Spool had counted then. */
export interface LifetimeBaseline {
  setting: number;
  counted: number;
}

export interface QuotaStateStore {
  /**
   * Claims one notice (`mark`: a threshold of one period, or an expiry notice): true the first time it is claimed,
   * false ever after, on any node, so a notice is sent once.
   */
  claim(provider: string, mark: string): Promise<boolean>;
  /** The lifetime quota's starting point of this provider, if one was set. */
  baseline(provider: string): Promise<LifetimeBaseline | undefined>;
  setBaseline(provider: string, baseline: LifetimeBaseline): Promise<void>;
  /** Every record, for `spool migrate`'s copy and its check. */
  all(): Promise<QuotaRecord[]>;
}

/** One stored record: a claimed mark (`baseline` absent) or a provider's lifetime baseline (`mark` '#lifetime'). */
export interface QuotaRecord {
  provider: string;
  mark: string;
  baseline?: LifetimeBaseline;
}

/** The mark under which a provider's lifetime baseline is kept (no notice mark starts with '#'). */
export const BASELINE_MARK = '#lifetime';
