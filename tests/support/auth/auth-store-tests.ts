/**
 * The auth domain's tests that run through its storage ports (registration rules, logins, API keys, sessions, the
 * login limiter over stored users), written once and run against every store: LMDB (appliance/auth/auth.test.ts)
 * and PostgreSQL (tests/integration/postgres/auth-pg.test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { registerSchema } from '../../../appliance/auth/auth.schemas.js';
import { createAuth, roleOf, toUserJson, type AuthDomain, type AuthSettings } from '../../../appliance/auth/index.js';
import type { ApiKeyStore, SessionStore, UserStore } from '../../../appliance/auth/auth.port.js';
import { hashKey } from '../../../appliance/auth/api-key.js';
import { SessionService } from '../../../appliance/auth/session.service.js';
import { AppError } from '../../../appliance/errors/app-error.js';
import { memoryLogger } from '../../../appliance/logging/logger.js';

/** One test's stores, fresh and empty. */
export interface AuthStoresUnderTest {
  users: UserStore;
  sessions: SessionStore;
  apiKeys: ApiKeyStore;
  /** The keys the session store wrote, as stored. */
  storedSessionKeys(): Promise<string[]>;
  close(): Promise<void>;
}

interface Fixture {
  stores: AuthStoresUnderTest;
  auth: AuthDomain;
  settings: AuthSettings;
}

const input = (username: string, password = 'correct horse', email: string | null = null) =>
  registerSchema.parse({ username, password, ...(email ? { email } : {}) });

async function rejects(p: Promise<unknown> | (() => unknown), code: string, message?: RegExp): Promise<void> {
  await assert.rejects(
    async () => (typeof p === 'function' ? p() : p),
    (err: unknown) => err instanceof AppError && err.code === code && (!message || message.test(err.message)),
  );
}

/** Registers the auth tests on stores `open` makes (a fresh, empty pair per test). */
export function authStoreTests(open: () => Promise<AuthStoresUnderTest>): void {
  async function withAuth(fn: (f: Fixture) => Promise<void>): Promise<void> {
    const stores = await open();
    const settings: AuthSettings = {
      loginRequired: true,
      registrationEnabled: false,
      webdavUser: 'dav',
      webdavPassword: '',
    };
    const auth = createAuth({ ...stores, settings: () => settings, logger: memoryLogger() });
    try {
      await fn({ stores, auth, settings });
    } finally {
      auth.close();
      await stores.close();
    }
  }

  test('named API keys: stored hashed only, resolved with their scope, last use recorded, revoked at once', () =>
    withAuth(async ({ auth, stores, settings }) => {
      const alice = await auth.users.register(input('alice'));
      const { key, secret } = await auth.apiKeys.create(alice.id, 'Prometheus', 'metrics');
      assert.match(secret, /^spk_[0-9a-f]{64}$/);
      const stored = await stores.apiKeys.all();
      assert.equal(stored.length, 1);
      assert.equal(stored[0]!.hash, hashKey(secret));
      assert.equal(JSON.stringify(stored).includes(secret), false, 'the secret itself is never stored');
      assert.equal(key.last_used_at, null);

      const found = await auth.apiKeys.resolve(secret, '192.0.2.7');
      assert.equal(found?.user.id, alice.id);
      assert.equal(found?.scope, 'metrics');
      const [listed] = await auth.apiKeys.list(alice.id);
      assert.equal(listed?.last_used_ip, '192.0.2.7');
      assert.ok(listed?.last_used_at);
      assert.equal(await auth.apiKeys.resolve('spk_' + '0'.repeat(64), '192.0.2.7'), undefined);
      // The legacy per-user key keeps working, as a full key.
      assert.equal((await auth.apiKeys.resolve(alice.api_key, '192.0.2.7'))?.scope, 'full');

      settings.registrationEnabled = true;
      const bob = await auth.users.register(input('bob'));
      await rejects(auth.apiKeys.revoke(bob.id, key.id), 'NO_SUCH_RECORD');
      await auth.apiKeys.revoke(alice.id, key.id);
      assert.equal(await auth.apiKeys.resolve(secret, '192.0.2.7'), undefined);
      assert.deepEqual(await auth.apiKeys.list(alice.id), []);
      await rejects(auth.apiKeys.revoke(alice.id, key.id), 'NO_SUCH_RECORD');
    }));

  test('the first user becomes admin; registration then closes unless enabled; later users are not admins', () =>
    withAuth(async ({ auth, settings }) => {
      assert.deepEqual(await auth.users.registrationStatus(), { registration_enabled: true, user_count: 0 });
      const first = await auth.users.register(input('alice'));
      assert.equal(first.is_admin, true);
      assert.deepEqual(await auth.users.registrationStatus(), { registration_enabled: false, user_count: 1 });
      await rejects(auth.users.register(input('bob')), 'REGISTRATION_CLOSED', /Registration is closed/);

      settings.registrationEnabled = true;
      const bob = await auth.users.register(input('bob', 'another pass', 'bob@example.com'));
      assert.equal(bob.is_admin, false);
      await rejects(auth.users.register(input('ALICE')), 'ALREADY_EXISTS', /already taken/);
      await rejects(
        auth.users.register(input('carol', 'pass word', 'BOB@example.com')),
        'ALREADY_EXISTS',
        /already registered/,
      );
      assert.equal(await auth.users.count(), 2);
    }));

  test('two simultaneous first registrations produce exactly one admin', () =>
    withAuth(async ({ auth, settings }) => {
      settings.registrationEnabled = true;
      const users = await Promise.all([auth.users.register(input('one')), auth.users.register(input('two'))]);
      assert.equal(users.filter((u) => u.is_admin).length, 1);
    }));

  test('login by name or email, case-insensitive; wrong password and unknown user both fail alike', () =>
    withAuth(async ({ auth }) => {
      await auth.users.register(input('Alice', 'alice-password', 'alice@example.com'));
      const byName = await auth.auth.login({ username: 'alice', password: 'alice-password' }, 'ip1');
      assert.equal(byName.user.name, 'Alice');
      assert.ok(byName.user.last_login);
      assert.equal(await auth.sessions.validate(byName.sessionId), byName.user.id);
      const byEmail = await auth.auth.login({ username: 'ALICE@example.com', password: 'alice-password' }, 'ip1');
      assert.equal(byEmail.user.id, byName.user.id);
      await rejects(
        auth.auth.login({ username: 'alice', password: 'wrong-password' }, 'ip1'),
        'BAD_CREDENTIALS',
        /Invalid username or password/,
      );
      await rejects(
        auth.auth.login({ username: 'nobody', password: 'alice-password' }, 'ip1'),
        'BAD_CREDENTIALS',
        /Invalid username or password/,
      );
      await auth.auth.logout(byName.sessionId);
      assert.equal(await auth.sessions.validate(byName.sessionId), null, 'logout ends the session');
    }));

  test('API keys identify their user; regenerating retires the old key', () =>
    withAuth(async ({ auth }) => {
      const alice = await auth.users.register(input('alice'));
      assert.match(alice.api_key, /^[0-9a-f]{32}$/);
      assert.equal((await auth.users.byApiKey(alice.api_key))?.id, alice.id);
      const next = await auth.users.regenerateApiKey(alice.id);
      assert.notEqual(next.api_key, alice.api_key);
      assert.equal(await auth.users.byApiKey(alice.api_key), undefined);
      assert.equal((await auth.users.byApiKey(next.api_key))?.id, alice.id);
      assert.equal(await auth.users.byApiKey(''), undefined);
    }));

  test('the last administrator cannot lose admin rights; with two admins one may go', () =>
    withAuth(async ({ auth, settings }) => {
      const alice = await auth.users.register(input('alice'));
      settings.registrationEnabled = true;
      const bob = await auth.users.register(input('bob'));
      await rejects(() => auth.users.setAdmin(alice.id, false), 'LAST_ADMIN', /last administrator/);
      assert.equal((await auth.users.setAdmin(bob.id, true)).is_admin, true);
      assert.equal((await auth.users.setAdmin(alice.id, false)).is_admin, false);
      await rejects(() => auth.users.setAdmin(bob.id, false), 'LAST_ADMIN');
      await rejects(() => auth.users.setAdmin('missing', true), 'NO_SUCH_RECORD');
    }));

  test('roles: read-only is stored beside is_admin; the last admin keeps the role; a record from before roles reads by its flag', () =>
    withAuth(async ({ auth, settings }) => {
      const alice = await auth.users.register(input('alice'));
      settings.registrationEnabled = true;
      const bob = await auth.users.register(input('bob'));
      assert.deepEqual([roleOf(alice), roleOf(bob)], ['admin', 'user']);
      const viewer = await auth.users.setRole(bob.id, 'read-only');
      assert.deepEqual([viewer.role, viewer.is_admin], ['read-only', false]);
      assert.equal(roleOf((await auth.users.get(bob.id))!), 'read-only', 'stored');
      // Remove Admin on a read-only user leaves it read-only; Make Admin makes it an administrator.
      assert.equal((await auth.users.setAdmin(bob.id, false)).role, 'read-only');
      assert.deepEqual(toUserJson(await auth.users.setAdmin(bob.id, true)).role, 'admin');
      await auth.users.setRole(bob.id, 'user');
      await rejects(() => auth.users.setRole(alice.id, 'read-only'), 'LAST_ADMIN');
      assert.equal(roleOf({ is_admin: true }), 'admin');
      assert.equal(roleOf({ is_admin: false }), 'user');
    }));

  test('sessions expire after their TTL, slide forward when used, and are purged', () =>
    withAuth(async ({ stores }) => {
      let now = 1_000_000;
      const hour = 3600 * 1000;
      const sessions = new SessionService(stores.sessions, { ttlMs: 24 * hour, now: () => now });
      const id = await sessions.create('u1');
      now += 23 * hour;
      assert.equal(await sessions.validate(id), 'u1', 'used before expiry: slides to now + TTL');
      now += 23 * hour;
      assert.equal(await sessions.validate(id), 'u1', 'still alive thanks to the slide');
      now += 25 * hour;
      assert.equal(await sessions.validate(id), null, 'idle longer than the TTL: gone');

      const stale = await sessions.create('u2');
      now += 25 * hour;
      assert.equal(await sessions.purgeExpired(), 1);
      assert.equal(await sessions.validate(stale), null);
      assert.ok(!(await stores.storedSessionKeys()).includes(stale), 'ids are stored hashed');
    }));

  test('wrong Basic credentials count against the same per-client limit as the login form', () =>
    withAuth(async ({ auth }) => {
      await auth.users.register(input('alice', 'alice-password'));
      const basic = (password: string) => 'Basic ' + Buffer.from(`alice:${password}`).toString('base64');
      for (let i = 0; i < 10; i++) assert.equal(await auth.basic.verify(basic(`wrong-${i}`), 'evil', false), null);
      await rejects(auth.basic.verify(basic('alice-password'), 'evil', false), 'RATE_LIMITED');
      await rejects(auth.auth.login({ username: 'alice', password: 'alice-password' }, 'evil'), 'RATE_LIMITED');
      assert.equal((await auth.basic.verify(basic('alice-password'), 'friend', false))?.name, 'alice');
    }));

  test('login through the service counts failures per client and answers 429 when the limit is reached', () =>
    withAuth(async ({ auth }) => {
      await auth.users.register(input('alice', 'alice-password'));
      const attempts = [];
      // 15 different guesses at once: only 10 may be checked, the burst beyond the limit is refused before any hashing.
      for (let i = 0; i < 15; i++)
        attempts.push(
          auth.auth.login({ username: 'alice', password: `bad-password-${i}` }, 'evil').catch((e: AppError) => e.code),
        );
      const codes = await Promise.all(attempts);
      assert.equal(codes.filter((c) => c === 'BAD_CREDENTIALS').length, 10);
      assert.equal(codes.filter((c) => c === 'RATE_LIMITED').length, 5);
      await rejects(auth.auth.login({ username: 'alice', password: 'alice-password' }, 'evil'), 'RATE_LIMITED');
      assert.ok(await auth.auth.login({ username: 'alice', password: 'alice-password' }, 'friend'));
    }));

  test('the webdav.user pair is checked under the limiter: a locked-out address gets 429 even for the right pair', () =>
    withAuth(async ({ auth, settings }) => {
      settings.webdavPassword = 'player-password';
      const basic = (name: string, password: string) =>
        'Basic ' + Buffer.from(`${name}:${password}`).toString('base64');
      for (let i = 0; i < 10; i++)
        assert.equal(await auth.basic.verify(basic('dav', `guess-${i}`), 'evil', true), null);
      await rejects(auth.basic.verify(basic('dav', 'player-password'), 'evil', true), 'RATE_LIMITED');
      assert.equal((await auth.basic.verify(basic('dav', 'player-password'), 'friend', true))?.name, 'dav');
    }));

  test('a remembered Basic header does not pass while its address is locked out', () =>
    withAuth(async ({ auth }) => {
      await auth.users.register(input('alice', 'alice-password'));
      const basic = (password: string) => 'Basic ' + Buffer.from(`alice:${password}`).toString('base64');
      assert.equal((await auth.basic.verify(basic('alice-password'), 'shared', false))?.name, 'alice');
      for (let i = 0; i < 10; i++) assert.equal(await auth.basic.verify(basic(`wrong-${i}`), 'shared', false), null);
      await rejects(auth.basic.verify(basic('alice-password'), 'shared', false), 'RATE_LIMITED');
    }));
}
