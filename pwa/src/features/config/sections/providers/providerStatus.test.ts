import { test } from 'node:test';
import assert from 'node:assert/strict';
import { providerStatus } from './providerStatus';

const base = { allowed_connections: null, max_connections: 8, cooling_down: false, last_error: null };

test('a provider serving every configured connection shows nothing extra', () => {
  assert.deepEqual(providerStatus(base), { allowed: undefined, cooling: undefined });
  assert.deepEqual(providerStatus(undefined), {});
});

test('a learned cap shows as connections allowed of those configured; a cooling provider shows why', () => {
  assert.equal(providerStatus({ ...base, allowed_connections: 3 }).allowed, '3 of 8 allowed by the provider');
  assert.equal(providerStatus({ ...base, allowed_connections: 0 }).allowed, '0 of 8 allowed by the provider');
  const cooling = providerStatus({ ...base, cooling_down: true, last_error: 'Authentication failed: 481 bad' });
  assert.equal(cooling.cooling, 'Authentication failed: 481 bad');
  assert.equal(cooling.allowed, undefined);
});
