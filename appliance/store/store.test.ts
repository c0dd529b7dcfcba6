import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  migrate,
  openStore,
  reconcileSharedStructures,
  schemaVersion,
  sharedStructures,
  type Migration,
} from './index.js';

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

test('a database opened again with other options is refused; opened again without options it is the same', async () => {
  const { root, cleanup } = tempRoot();
  const store = openStore({ rootPath: root });
  try {
    const options = sharedStructures(8, () => true);
    const db = store.openDb('records', options);
    assert.equal(store.openDb('records', options), db);
    assert.equal(store.openDb('records'), db, 'no options: the handle as first opened');
    assert.throws(
      () =>
        store.openDb(
          'records',
          sharedStructures(8, () => true),
        ),
      /already open with other options/,
    );
    store.openDb('plain');
    assert.throws(() => store.openDb('plain', options), /already open with other options/);
  } finally {
    await store.close();
    cleanup();
  }
});

test('a batched migration runs piece by piece, each in its own transaction, and records its version once', async () => {
  const { root, cleanup } = tempRoot();
  const store = openStore({ rootPath: root });
  try {
    const seen: unknown[] = [];
    const step: Migration = {
      version: 1,
      description: 'pieces',
      batch: (s, after) => {
        seen.push(after);
        const next = ((after as number | undefined) ?? 0) + 1;
        s.openDb('t').putSync(next, `piece ${next}`);
        assert.equal(schemaVersion(s, 'demo'), 0, 'not recorded before the last piece');
        return next < 3 ? next : null;
      },
    };
    assert.deepEqual(migrate(store, 'demo', [step]).applied, ['pieces']);
    assert.deepEqual(seen, [undefined, 1, 2], 'each piece starts where the one before ended');
    assert.deepEqual(
      [1, 2, 3].map((k) => store.openDb('t').get(k)),
      ['piece 1', 'piece 2', 'piece 3'],
    );
    assert.equal(store.meta.get('migration_progress:demo:1'), undefined, 'its progress is gone once recorded');
    assert.deepEqual(migrate(store, 'demo', [step]).applied, []);
    assert.equal(seen.length, 3, 'never run again');

    // a piece that throws rolls back alone: the pieces before stay, and the next run resumes after them
    let calls = 0;
    const breaking: Migration = {
      version: 1,
      description: 'breaks at the second piece',
      batch: (s, after) => {
        if (++calls === 2) throw new Error('boom');
        s.openDb('u').putSync(calls, after ?? 'start');
        return calls < 3 ? calls : null;
      },
    };
    assert.throws(() => migrate(store, 'other', [breaking]), /boom/);
    assert.equal(store.meta.get('migration_progress:other:1'), 1);
    assert.equal(store.openDb('u').get(2), undefined);
    assert.deepEqual(migrate(store, 'other', [breaking]).applied, ['breaks at the second piece']);
    assert.deepEqual(
      [1, 3].map((k) => store.openDb('u').get(k)),
      ['start', 1],
    );
  } finally {
    await store.close();
    cleanup();
  }
});

test('a record definition saved by a transaction that rolled back is not used by the next record', async () => {
  const { root, cleanup } = tempRoot();
  const options = sharedStructures(8, () => true);
  let store = openStore({ rootPath: root });
  try {
    const db = store.openDb('records', options);
    await db.put('a', { x: 1, y: 2 });
    // msgpackr saves the definition of {p, q} inside this transaction, which then rolls back
    await assert.rejects(
      db.childTransaction(() => {
        void db.put('b', { p: 1, q: 2 });
        throw new Error('boom');
      }),
      /boom/,
    );
    await db.childTransaction(() => {
      reconcileSharedStructures(db);
      void db.put('c', { p: 3, q: 4 });
    });
    await store.close();
    store = openStore({ rootPath: root });
    const again = store.openDb('records', options);
    assert.deepEqual(again.get('c'), { p: 3, q: 4 }, 'a fresh opener reads it');
    assert.deepEqual(again.get('a'), { x: 1, y: 2 });
    assert.equal(again.get('b'), undefined);
  } finally {
    await store.close();
    cleanup();
  }
});
