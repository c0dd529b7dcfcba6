import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueryClient } from '@tanstack/react-query';
import { configKeys } from '../features/config/configKeys';
import { providerKeys } from '../features/config/sections/providers/providerKeys';
import { accountKeys } from '../features/login/accountKeys';
import { healthKeys } from '../features/health/healthKeys';
import { queueKeys } from '../features/queue/queueKeys';
import { usersKeys } from '../features/admin/usersKeys';
import type { HealthListParams } from '../features/health/healthApi';
import type { QueueListParams } from '../features/queue/queueApi';
import { clearLastKnown, keepLastKnown, LAST_KNOWN_KEY, partOf, readLastKnown } from './lastKnown';

// What the console keeps for offline use: the dashboard figures and the first unfiltered page of queue and health,
// nothing else, with the time it was received.
class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
}

const FIRST: QueueListParams = { page: 1, status: '', search: '' } as QueueListParams;
const HEALTH_FIRST = { ...FIRST, sortBy: 'created_at', sortOrder: 'desc' } as HealthListParams;
const tick = () => new Promise((r) => setTimeout(r, 0));

test('only the dashboard figures and the unfiltered first pages are kept', () => {
  assert.equal(partOf(queueKeys.stats), 'queueStats');
  assert.equal(partOf(healthKeys.stats), 'healthStats');
  assert.equal(partOf(providerKeys.poolMetrics), 'poolMetrics');
  assert.equal(partOf(queueKeys.list(FIRST)), 'queue');
  assert.equal(partOf(healthKeys.list(HEALTH_FIRST)), 'health');
  assert.equal(partOf(queueKeys.list({ ...FIRST, page: 2 })), null);
  assert.equal(partOf(queueKeys.list({ ...FIRST, search: 'x' })), null);
  assert.equal(partOf(queueKeys.all), null);
  assert.equal(partOf(configKeys.values), null);
  assert.equal(partOf(usersKeys.list), null);
  assert.equal(partOf(accountKeys.user), null);
});

test('successful answers are written with their time; other queries are not; clear removes them', async () => {
  const storage = new MemoryStorage();
  const qc = new QueryClient();
  const stop = keepLastKnown(qc, storage, () => 1_000, 0);
  const queue = { data: [{ id: 1, nzb_path: 'a.nzb', status: 'completed' }], meta: { total: 1 } };
  qc.setQueryData(queueKeys.list(FIRST), queue);
  qc.setQueryData(queueKeys.stats, { total_queued: 0 });
  qc.setQueryData(configKeys.values, { api_key: 'secret' });
  await tick();
  const kept = readLastKnown(storage);
  assert.deepEqual(kept, { savedAt: 1_000, queue, queueStats: { total_queued: 0 } });
  assert.doesNotMatch(storage.getItem(LAST_KNOWN_KEY)!, /secret/);
  clearLastKnown(storage);
  assert.equal(readLastKnown(storage), null);
  stop();
});

test('clearing drops the answers not written yet: signing out is not undone by a write due after it', async () => {
  const storage = new MemoryStorage();
  const qc = new QueryClient();
  const stop = keepLastKnown(qc, storage, () => 1_000, 10);
  qc.setQueryData(['queue', 'stats'], { total_queued: 1 });
  clearLastKnown(storage);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(storage.getItem(LAST_KNOWN_KEY), null);
  // Answers after the clear are kept again.
  qc.setQueryData(['queue', 'stats'], { total_queued: 2 });
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(readLastKnown(storage), { savedAt: 1_000, queueStats: { total_queued: 2 } });
  stop();
});

test('a damaged entry reads as nothing kept', () => {
  const storage = new MemoryStorage();
  storage.setItem(LAST_KNOWN_KEY, '{not json');
  assert.equal(readLastKnown(storage), null);
});
