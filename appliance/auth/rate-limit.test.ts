import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../clock/manual-clock.js';
import { AppError } from '../errors/app-error.js';
import { LoginRateLimiter } from './rate-limit.js';

const RIGHT = 'the-right-password';
const ADDRESS = '172.17.0.1'; // Docker's userland proxy: every client of the house arrives from here

/** One login check: the verifier accepts only RIGHT, and counts how often it ran (the slow hash). */
function setup(opts: ConstructorParameters<typeof LoginRateLimiter>[0] = {}) {
  const clock = new ManualClock(1_000_000);
  const limiter = new LoginRateLimiter({ now: clock.now, ...opts });
  let hashed = 0;
  const login = (name: string, password: string, client = ADDRESS) =>
    limiter.attempt(client, name, password, async () => {
      hashed++;
      return password === RIGHT ? name : null;
    });
  return { clock, limiter, login, hashed: () => hashed };
}

const isLimited = (message?: RegExp) => (err: unknown) =>
  err instanceof AppError && err.code === 'RATE_LIMITED' && (!message || message.test(err.message));

test('a stale password repeated 100 times does not lock out the right one (nor others from the same address)', async () => {
  const { login, clock, hashed } = setup();
  for (let i = 0; i < 100; i++) {
    assert.equal(await login('dav', 'stale-password'), null);
    await clock.advance(1000);
  }
  // Checked once per window, not 100 times: a repeat answers "wrong" without the slow hash.
  assert.ok(hashed() <= 2, `hashed ${hashed()} times`);
  assert.equal(await login('dav', RIGHT), 'dav');
  assert.equal(await login('alice', RIGHT), 'alice');
  // And the stale client keeps being told "wrong", never 429.
  assert.equal(await login('dav', 'stale-password'), null);
});

test('11 distinct wrong passwords in 5 minutes are throttled; the right one is refused until the window passes', async () => {
  const { login, clock } = setup();
  for (let i = 0; i < 10; i++) {
    assert.equal(await login('alice', `guess-${i}`), null);
    await clock.advance(10_000);
  }
  await assert.rejects(
    login('alice', 'guess-10'),
    isLimited(/^Too many failed login attempts\. Try again in 2\d\d seconds\.$/),
  );
  await assert.rejects(login('alice', RIGHT), isLimited());
  await assert.rejects(login('ALICE', RIGHT), isLimited(), 'names are compared case-insensitively');
  // Another name at the address, and the same name at another address, are not affected.
  assert.equal(await login('bob', RIGHT), 'bob');
  assert.equal(await login('alice', RIGHT, '10.0.0.9'), 'alice');
  // Until the first guess leaves the window: 5 minutes after it, one more try is allowed.
  await clock.advance(5 * 60_000 - 100_000 - 1);
  await assert.rejects(login('alice', RIGHT), isLimited(/Try again in 1\d? seconds/));
  await clock.advance(1);
  assert.equal(await login('alice', RIGHT), 'alice');
  // A success forgets the name's failures at that address.
  for (let i = 0; i < 9; i++) assert.equal(await login('alice', `again-${i}`), null);
  assert.equal(await login('alice', 'again-9'), null);
});

test('parallel distinct guesses count while they are checked; parallel repeats of one password do not', async () => {
  const { login } = setup();
  const codes = await Promise.all(
    Array.from({ length: 15 }, (_, i) => login('alice', `burst-${i}`).catch((e: AppError) => e.code)),
  );
  assert.equal(codes.filter((c) => c === null).length, 10);
  assert.equal(codes.filter((c) => c === 'RATE_LIMITED').length, 5);
  const same = await Promise.all(
    Array.from({ length: 15 }, () => login('carol', 'stale').catch((e: AppError) => e.code)),
  );
  assert.deepEqual(same, Array(15).fill(null));
  assert.equal(await login('carol', RIGHT), 'carol');
});

test('one address may fail for a limited number of names; memory stays bounded', async () => {
  const { login, clock, limiter } = setup({ maxNamesPerClient: 20, maxEntries: 100 });
  for (let i = 0; i < 20; i++) assert.equal(await login(`user-${i}`, 'x'), null);
  await assert.rejects(login('user-20', 'x'), isLimited());
  await assert.rejects(login('user-20', RIGHT), isLimited(), 'a new name is refused, even with the right password');
  assert.equal(await login('user-3', RIGHT), 'user-3', 'names already tried keep their own limit');
  assert.equal(await login('user-20', RIGHT, '10.0.0.2'), 'user-20');
  await clock.advance(5 * 60_000);
  assert.equal(await login('user-20', RIGHT), 'user-20', 'after the window the address may try new names');

  // Many addresses: never more than maxEntries pairs remembered; expired ones go first.
  for (let i = 0; i < 500; i++) assert.equal(await login('alice', 'x', `10.1.${i >> 8}.${i & 255}`), null);
  assert.ok(limiter.size <= 100 && limiter.size >= 90, `${limiter.size} entries`);
  // The newest stay: the last address is still remembered (its repeat is not hashed again).
  await clock.advance(60_000);
  assert.equal(await login('alice', 'x', '10.1.1.243'), null);
  await clock.advance(5 * 60_000);
  limiter.check(ADDRESS, 'someone');
  await login('alice', 'y', '10.3.0.1');
  assert.equal(limiter.size, 1, 'expired entries are dropped');
});

const dump = (l: LoginRateLimiter) => JSON.stringify(l, (_k, v: unknown) => (v instanceof Map ? [...v.entries()] : v));
const hashOf = (l: LoginRateLimiter) => /"([\w-]{43})"/.exec(dump(l))?.[1];

test('wrong passwords are kept only as keyed hashes, with a key of this process', async () => {
  const one = setup().limiter;
  const two = setup().limiter;
  for (const l of [one, two]) await l.attempt(ADDRESS, 'alice', 'my-secret-guess', async () => null);
  assert.doesNotMatch(dump(one), /my-secret-guess/);
  assert.ok(hashOf(one) && hashOf(two));
  assert.notEqual(hashOf(one), hashOf(two));
});
