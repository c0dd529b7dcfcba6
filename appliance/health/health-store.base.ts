import type { EventSink, SpoolEvents } from '../events/index.js';
import type { HealthWrite, NewHealthRecord } from './health.port.js';
import type { HealthRecord } from './health.types.js';

/** A record before and after one committed write (undefined: it did not exist). */
export type RecordChange = [HealthRecord | undefined, HealthRecord | undefined];

/** What every health store (LMDB, PostgreSQL) offers on top of its `commit`: the one-write units of work. */
export abstract class HealthStoreBase {
  abstract commit(writes: readonly HealthWrite[]): Promise<(HealthRecord | undefined)[]>;

  async upsert(path: string, create: () => NewHealthRecord, change: (r: HealthRecord) => HealthRecord) {
    const [r] = await this.commit([{ op: 'upsert', path, create, change }]);
    return r!;
  }

  async update(id: number, change: (r: HealthRecord) => HealthRecord | null) {
    return (await this.commit([{ op: 'update', id, change }]))[0];
  }

  async remove(id: number) {
    return (await this.commit([{ op: 'remove', id }]))[0];
  }

  async rename(id: number, path: string): Promise<void> {
    await this.commit([{ op: 'rename', id, path }]);
  }
}

/** Announces each committed change as `health.record.changed` on the node that committed it. */
export function announceChanges(events: EventSink<SpoolEvents> | undefined, changes: readonly RecordChange[]): void {
  if (!events?.hasListeners('health.record.changed')) return;
  for (const [before, after] of changes) {
    const r = (after ?? before)!;
    const change = !before ? 'created' : !after ? 'removed' : 'updated';
    events.emit('health.record.changed', { id: r.id, path: r.path, change, status: r.status });
  }
}
