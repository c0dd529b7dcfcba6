import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addRestartRequired,
  changedRestartFields,
  clearRestartRequired,
  dismissRestartBanner,
  syncRestartRequired,
  readRestartState,
  type KeyValueStore,
} from './restartState';

function memoryStore(): KeyValueStore {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

test('pending settings accumulate without duplicates', () => {
  const store = memoryStore();
  addRestartRequired(['webdav.port'], store);
  addRestartRequired(['webdav.port', 'metadata.root_path'], store);
  assert.deepEqual(readRestartState(store), { pending: ['webdav.port', 'metadata.root_path'], dismissed: false });
});

test('dismissal sticks until a new setting needs a restart', () => {
  const store = memoryStore();
  addRestartRequired(['webdav.port'], store);
  dismissRestartBanner(store);
  assert.equal(readRestartState(store).dismissed, true);
  addRestartRequired(['webdav.port'], store);
  assert.equal(readRestartState(store).dismissed, true, 'same setting again keeps it dismissed');
  addRestartRequired(['import.max_processor_workers'], store);
  assert.equal(readRestartState(store).dismissed, false, 'a new setting shows the banner again');
});

test('reload or restart clears the list and the dismissal', () => {
  const store = memoryStore();
  addRestartRequired(['webdav.port'], store);
  dismissRestartBanner(store);
  clearRestartRequired(store);
  assert.deepEqual(readRestartState(store), { pending: [], dismissed: false });
});

test('changed restart-only settings are found from values and the server list', () => {
  assert.deepEqual(changedRestartFields({ 'webdav.port': 8080 }, { 'webdav.port': 9090 }, undefined), ['webdav.port']);
  assert.deepEqual(changedRestartFields({ 'webdav.port': 8080 }, { 'webdav.port': 8080 }, []), []);
  assert.deepEqual(changedRestartFields({}, { 'streaming.max_cache_size_mb': 5 }, ['import.max_processor_workers']), [
    'import.max_processor_workers',
  ]);
});

test('garbage in storage reads as an empty state', () => {
  const store = memoryStore();
  store.setItem('spool.restart.pending', '{not json');
  assert.deepEqual(readRestartState(store), { pending: [], dismissed: false });
});

test("the server's list replaces the pending one; a dismissal holds unless it names something new", () => {
  const store = memoryStore();
  addRestartRequired(['webdav.port'], store);
  dismissRestartBanner(store);
  syncRestartRequired(['webdav.port'], store);
  assert.deepEqual(readRestartState(store), { pending: ['webdav.port'], dismissed: true });
  syncRestartRequired([], store);
  assert.deepEqual(readRestartState(store).pending, []);
  syncRestartRequired(['metadata.root_path'], store);
  assert.deepEqual(readRestartState(store), { pending: ['metadata.root_path'], dismissed: false });
});
