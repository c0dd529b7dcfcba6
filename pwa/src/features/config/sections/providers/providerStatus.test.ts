import { test } from 'node:test';
import assert from 'node:assert/strict';
import { providerStatus } from './providerStatus';

const base = { allowed_connections: null, max_connections: 8, state: 'usable', last_error: null } as const;

test('a provider serving every configured connection shows nothing extra', () => {
  assert.deepEqual(providerStatus(base), {
    allowed: undefined,
    cooling: undefined,
    health: undefined,
    probeable: false,
  });
  assert.deepEqual(providerStatus(undefined), {});
});

test('a learned cap shows as connections allowed of those configured; a cooling provider shows why', () => {
  assert.equal(providerStatus({ ...base, allowed_connections: 3 }).allowed, '3 of 8 allowed by the provider');
  assert.equal(providerStatus({ ...base, allowed_connections: 0 }).allowed, '0 of 8 allowed by the provider');
  // Down until it answers again, whether or not its breaker's cool-down has ended (docs/nntp.md "Provider states").
  const cooling = providerStatus({ ...base, state: 'cooling_down', last_error: 'Authentication failed: 481 bad' });
  assert.equal(cooling.cooling, 'Authentication failed: 481 bad');
  assert.equal(cooling.allowed, undefined);
  // Down because it allows no connection: the cap says it, not "Cooling down" (docs/nntp.md "Connection caps").
  const full = providerStatus({ ...base, state: 'cooling_down', allowed_connections: 0 });
  assert.deepEqual(full, {
    allowed: '0 of 8 allowed by the provider',
    cooling: undefined,
    health: undefined,
    probeable: true,
  });
});

test('health with its reason, and a re-probe only for a provider that is down (a quota pause is not)', () => {
  assert.equal(providerStatus({ ...base, health: 'ok', reason: null }).health, 'ok');
  const spent = providerStatus({ ...base, state: 'paused', health: 'blocked', reason: 'quota_spent' });
  assert.deepEqual([spent.health, spent.probeable], ['blocked: quota spent', false]);
  const auth = providerStatus({ ...base, state: 'cooling_down', health: 'blocked', reason: 'auth_failed' });
  assert.deepEqual([auth.health, auth.probeable], ['blocked: auth failed', true]);
});
