import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PROVIDER_DEFAULTS,
  canTest,
  changedFields,
  formErrors,
  formFromProvider,
  resetsTest,
  testInput,
} from './providerForm';

const saved = {
  id: 'p1',
  host: 'news.example.com',
  port: 563,
  username: 'me',
  password_set: true,
  max_connections: 20,
  tls: true,
  insecure_tls: false,
  ca: '',
  enabled: true,
  is_backup_provider: false,
  retention_days: null,
  retention_policy: 'last' as const,
  backbone: '',
  block_account: false,
  required: false,
  candidate: false,
  fit_stats_per_hour: 600,
  price_per_month: null,
  price_per_block: null,
  block_size_gb: null,
  quota_period: 'none' as const,
  quota_bytes: null,
  quota_reset_day: 1,
  quota_used_bytes: 0,
  expires_on: null,
};

test('defaults of docs/console-contract.md §9', () => {
  assert.equal(PROVIDER_DEFAULTS.port, 119);
  assert.equal(PROVIDER_DEFAULTS.max_connections, 10);
  assert.equal(PROVIDER_DEFAULTS.tls, false);
  assert.equal(PROVIDER_DEFAULTS.enabled, true);
  assert.equal(PROVIDER_DEFAULTS.is_backup_provider, false);
});

test('testing needs host, username and password; edit mode may leave the password empty', () => {
  const form = { ...PROVIDER_DEFAULTS, host: 'h', username: 'u' };
  assert.equal(canTest(form, false), false);
  assert.equal(canTest(form, true), true);
  assert.equal(canTest({ ...form, password: 'p' }, false), true);
  assert.equal(canTest({ ...form, username: ' ' }, true), false);
});

test('edit-mode test with an empty password names the provider so the server uses the saved one', () => {
  const form = formFromProvider(saved);
  assert.equal(form.password, '');
  assert.equal(testInput(form, 'p1').id, 'p1');
  assert.equal(testInput({ ...form, password: 'new' }, 'p1').id, undefined);
  assert.equal(testInput({ ...form, tls: false, insecure_tls: true }, undefined).insecure_tls, false);
});

test('only connection fields reset the test', () => {
  for (const f of ['host', 'port', 'username', 'password', 'tls', 'insecure_tls'] as const) assert.ok(resetsTest(f));
  for (const f of ['max_connections', 'enabled', 'is_backup_provider'] as const) assert.equal(resetsTest(f), false);
});

test('PUT sends only changed fields and never an empty password', () => {
  const initial = formFromProvider(saved);
  assert.deepEqual(changedFields(initial, initial), {});
  assert.deepEqual(changedFields(initial, { ...initial, max_connections: 5, is_backup_provider: true }), {
    max_connections: 5,
    is_backup_provider: true,
  });
  assert.deepEqual(changedFields(initial, { ...initial, password: 'secret' }), { password: 'secret' });
});

test('ranges of docs/console-contract.md §5', () => {
  assert.deepEqual(formErrors(PROVIDER_DEFAULTS), {});
  assert.ok(formErrors({ ...PROVIDER_DEFAULTS, port: 0 }).port);
  assert.ok(formErrors({ ...PROVIDER_DEFAULTS, port: 65536 }).port);
  assert.ok(formErrors({ ...PROVIDER_DEFAULTS, max_connections: 51 }).max_connections);
  assert.ok(formErrors({ ...PROVIDER_DEFAULTS, max_connections: 0 }).max_connections);
});
