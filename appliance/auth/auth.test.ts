import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../store/index.js';
import { authStoreTests } from '../../tests/support/auth/auth-store-tests.js';
import { registerSchema } from './auth.schemas.js';
import { hashPassword, verifyPassword } from './password.js';
import { openLmdbAuthStores } from './auth-lmdb.store.js';

test('scrypt hashes are salted, verify only the right password, and a malformed hash never matches', async () => {
  const a = await hashPassword('s3cret-pass');
  const b = await hashPassword('s3cret-pass');
  assert.notEqual(a, b, 'per-hash salt');
  assert.match(a, /^scrypt\$15\$8\$1\$/);
  assert.equal(await verifyPassword('s3cret-pass', a), true);
  assert.equal(await verifyPassword('s3cret-pasS', a), false);
  assert.equal(await verifyPassword('s3cret-pass', 'plain'), false);
  assert.equal(await verifyPassword('s3cret-pass', a.replace(/\$[^$]+$/, '$AAAA')), false);
});

test('registration texts of docs/console-contract.md §5', () => {
  const r = registerSchema.safeParse({ username: 'ab', password: 'short', email: 'nope' });
  assert.equal(r.success, false);
  const messages = r.error!.issues.map((i) => i.message).sort();
  assert.deepEqual(messages, [
    'Email address is invalid',
    'Password must be at least 8 characters long',
    'Username must be at least 3 characters long',
  ]);
  assert.equal(registerSchema.safeParse({ username: 'abc', password: '12345678', extra: 1 }).success, false);
  assert.equal(registerSchema.parse({ username: ' abc ', password: '12345678', email: '' }).email, null);
});

// The tests through the storage ports, on LMDB (the same ones run on PostgreSQL: tests/integration/postgres/).
authStoreTests(async () => {
  const root = mkdtempSync(join(tmpdir(), 'spool-auth-'));
  const store = openStore({ rootPath: root });
  return {
    ...openLmdbAuthStores(store),
    storedSessionKeys: async () => Array.from(store.openDb<unknown, string>('sessions').getKeys()),
    close: async () => {
      await store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
});
