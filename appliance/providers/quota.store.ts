import type { Database, Store } from '../store/index.js';
import { BASELINE_MARK, type LifetimeBaseline, type QuotaRecord, type QuotaStateStore } from './quota.port.js';

type Key = [string, string];
type Value = { at: number } | LifetimeBaseline;

/** The quota meter's marks and baselines in LMDB (`provider-quota`, key [provider id, mark]). */
export class LmdbQuotaStateStore implements QuotaStateStore {
  private readonly db: Database<Value, Key>;

  constructor(store: Store) {
    this.db = store.openDb<Value, Key>('provider-quota');
  }

  claim(provider: string, mark: string): Promise<boolean> {
    const key: Key = [provider, mark];
    return this.db.ifNoExists(key, () => void this.db.put(key, { at: Date.now() }));
  }

  baseline(provider: string): Promise<LifetimeBaseline | undefined> {
    return Promise.resolve(this.db.get([provider, BASELINE_MARK]) as LifetimeBaseline | undefined);
  }

  async setBaseline(provider: string, baseline: LifetimeBaseline): Promise<void> {
    await this.db.put([provider, BASELINE_MARK], { setting: baseline.setting, counted: baseline.counted });
  }

  all(): Promise<QuotaRecord[]> {
    const out: QuotaRecord[] = [];
    for (const { key, value } of this.db.getRange()) {
      const [provider, mark] = key;
      if (mark === BASELINE_MARK) {
        const b = value as LifetimeBaseline;
        out.push({ provider, mark, baseline: { setting: b.setting, counted: b.counted } });
      } else out.push({ provider, mark });
    }
    return Promise.resolve(out);
  }
}
