/** The quota and expiry keys of a provider entry (docs/configuration.md "providers"): defaults, bad values refused. */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { AppError } from '../errors/app-error.js';
import { ConfigService } from './config.service.js';
import { localDay, pastExpiryErrors } from './providers.js';
import { checkProvider, providerFieldMessage } from '../../tests/support/config/provider-entry.js';

const check = checkProvider;
const messageOf = providerFieldMessage;

test('a provider entry without quota keys has no quota and no expiry', () => {
  const result = check({});
  assert.ok(result.ok);
  const p = result.config.providers[0]!;
  assert.deepEqual(
    [p.quota_period, p.quota_bytes, p.quota_reset_day, p.quota_used_bytes, p.expires_on],
    ['none', null, 1, 0, null],
  );
  assert.ok(check({ quota_period: 'monthly', quota_bytes: 500e9, quota_reset_day: 31 }).ok);
  assert.ok(
    check({ quota_period: 'lifetime', quota_bytes: 1e12, quota_used_bytes: 2e11, expires_on: '2020-01-01' }).ok,
  );
});

test('bad quota values are refused with the field message', () => {
  assert.match(messageOf({ quota_period: 'daily', quota_bytes: -5 }, 'quota_bytes') ?? '', /positive number of bytes/);
  assert.match(messageOf({ quota_period: 'daily', quota_bytes: 0 }, 'quota_bytes') ?? '', /positive number of bytes/);
  assert.match(messageOf({ quota_bytes: 1.5 }, 'quota_bytes') ?? '', /whole number/);
  assert.match(messageOf({ quota_period: 'hourly' }, 'quota_period') ?? '', /daily, weekly, monthly, lifetime/);
  assert.match(messageOf({ quota_period: 'daily' }, 'quota_bytes') ?? '', /daily quota needs its size/);
  assert.match(
    messageOf({ quota_period: 'weekly', quota_bytes: 1, quota_reset_day: 8 }, 'quota_reset_day') ?? '',
    /Monday/,
  );
  assert.match(messageOf({ quota_reset_day: 0 }, 'quota_reset_day') ?? '', /between 1 and 31/);
  assert.match(messageOf({ quota_used_bytes: -1 }, 'quota_used_bytes') ?? '', /cannot be negative/);
  assert.match(messageOf({ expires_on: '31/03/2027' }, 'expires_on') ?? '', /date like/);
  assert.match(messageOf({ expires_on: '2027-02-30' }, 'expires_on') ?? '', /not a date/);
});

test('an expiry date is refused in the past when set, and kept when it passed since', () => {
  const stored = check({ id: 'a', expires_on: '2020-01-01' });
  assert.ok(stored.ok);
  const prev = stored.config.providers;
  const today = '2026-11-28';
  assert.deepEqual(pastExpiryErrors(prev, [{ id: 'a', expires_on: '2020-01-01' }], today), []);
  assert.deepEqual(pastExpiryErrors(prev, [{ id: 'a', expires_on: '2026-11-28' }], today), []);
  assert.match(pastExpiryErrors(prev, [{ id: 'a', expires_on: '2026-11-27' }], today)[0]?.message ?? '', /in the past/);
  assert.equal(
    pastExpiryErrors(prev, [{ id: 'b', expires_on: '2021-05-01' }], today)[0]?.field,
    'providers.0.expires_on',
  );
  assert.equal(localDay(new Date(2026, 10, 28, 23, 59).getTime()), '2026-11-28');
});

test('the providers API refuses a past expiry with the field message and saves a future one', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'spool-quota-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const config = await ConfigService.open({ configPath: path.join(dir, 'config.yaml'), dataDir: dir });
  const added = await config.addProvider({ host: 'news.example.com', quota_period: 'monthly', quota_bytes: 1000 });
  const refused = await config.updateProvider(added.id, { expires_on: '2001-01-01' }).catch((e: unknown) => e);
  assert.ok(refused instanceof AppError);
  assert.deepEqual(
    (refused.details as Array<{ field: string; message: string }>).map((e) => e.field),
    ['expires_on'],
  );
  const future = localDay(Date.now() + 30 * 86_400_000);
  assert.equal((await config.updateProvider(added.id, { expires_on: future })).expires_on, future);
});
