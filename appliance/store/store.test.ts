import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openStore, schemaVersion, type Migration } from './index.js';

function tempRoot(): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'spool-store-'));
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

test('named databases keep data across close and reopen', async () => {
  const { root, cleanup } = tempRoot();
  try {
    const store = openStore({ rootPath: root });
    const users = store.openDb<{ name: string }, string>('users');
    await users.put('u1', { name: 'alice' });
    assert.equal(store.openDb('users'), users, 'same handle for the same name');
    await store.close();
    await store.close(); // second close is harmless

    const again = openStore({ rootPath: root });
    assert.deepEqual(again.openDb<{ name: string }, string>('users').get('u1'), { name: 'alice' });
    assert.equal(again.openDb('other').get('u1'), undefined, 'databases are separate');
    await again.close();
  } finally {
    cleanup();
  }
});

test('openDb refuses reserved and malformed names', async () => {
  const { root, cleanup } = tempRoot();
  const store = openStore({ rootPath: root });
  try {
    assert.throws(() => store.openDb('_meta'), /reserved/);
    assert.throws(() => store.openDb('settings'), /reserved/);
    assert.throws(() => store.openDb('Bad Name'), /Invalid database name/);
  } finally {
    await store.close();
    cleanup();
  }
});

test('migrations run once, in order, and a failing step leaves nothing behind', async () => {
  const { root, cleanup } = tempRoot();
  const store = openStore({ rootPath: root });
  try {
    const calls: number[] = [];
    const steps: Migration[] = [
      { version: 2, description: 'second', up: (s) => (calls.push(2), s.openDb('t').putSync('b', 2)) },
      { version: 1, description: 'first', up: (s) => (calls.push(1), s.openDb('t').putSync('a', 1)) },
    ];
    const first = migrate(store, 'demo', steps);
    assert.deepEqual(first, { scope: 'demo', from: 0, to: 2, applied: ['first', 'second'] });
    assert.deepEqual(calls, [1, 2]);
    const again = migrate(store, 'demo', steps);
    assert.deepEqual(again.applied, []);
    assert.deepEqual(calls, [1, 2], 'applied steps never run again');

    const failing: Migration = {
      version: 3,
      description: 'breaks',
      up: (s) => {
        s.openDb('t').putSync('c', 3);
        throw new Error('boom');
      },
    };
    assert.throws(() => migrate(store, 'demo', [...steps, failing]), /boom/);
    assert.equal(schemaVersion(store, 'demo'), 2);
    assert.equal(store.openDb('t').get('c'), undefined, 'the failed step was rolled back');
    assert.equal(schemaVersion(store, 'other'), 0, 'scopes are independent');
  } finally {
    await store.close();
    cleanup();
  }
});

test('a store from a newer Spool and gaps in numbering are refused', async () => {
  const { root, cleanup } = tempRoot();
  const store = openStore({ rootPath: root });
  try {
    store.meta.putSync('schema_version:demo', 5);
    assert.throws(
      () => migrate(store, 'demo', [{ version: 1, description: 'x', up: () => undefined }]),
      /newer than this Spool/,
    );
    assert.throws(
      () => migrate(store, 'gap', [{ version: 2, description: 'x', up: () => undefined }]),
      /numbered 1..n/,
    );
  } finally {
    await store.close();
    cleanup();
  }
});
