/** The routing keys of a provider entry (docs/configuration.md "providers"): defaults, and bad values refused per field. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backboneOfHost } from '../nntp/backbones.js';
import { checkProvider, providerFieldMessage } from '../../tests/support/config/provider-entry.js';

const check = checkProvider;
const messageOf = providerFieldMessage;

test('a provider entry without routing keys gets unlimited retention, "last", no backbone, primary, not required', () => {
  const result = check({});
  assert.ok(result.ok);
  const p = result.config.providers[0]!;
  assert.equal(p.retention_days, null);
  assert.equal(p.retention_policy, 'last');
  assert.equal(p.backbone, '');
  assert.equal(p.block_account, false);
  assert.equal(p.required, false);
  assert.ok(check({ retention_days: 1500, retention_policy: 'never', backbone: 'omicron', required: true }).ok);
});

test('bad routing values are refused with the field message', () => {
  assert.match(messageOf({ retention_days: 0 }, 'retention_days') ?? '', /at least 1 day/);
  assert.match(messageOf({ retention_days: -5 }, 'retention_days') ?? '', /at least 1 day/);
  assert.match(messageOf({ retention_days: 2.5 }, 'retention_days') ?? '', /whole number/);
  assert.match(messageOf({ retention_policy: 'first' }, 'retention_policy') ?? '', /"last".*"never"/);
  assert.match(messageOf({ backbone: 'nosuchbackbone' }, 'backbone') ?? '', /Unknown backbone.*omicron/);
  assert.ok(messageOf({ block_account: 'yes' }, 'block_account'));
});

test('the shipped table names the backbone of a host, or none', () => {
  assert.equal(backboneOfHost('news.eweka.nl'), 'omicron');
  assert.equal(backboneOfHost('EU.News.Newshosting.com.'), 'omicron');
  assert.equal(backboneOfHost('news.giganews.com'), 'giganews');
  assert.equal(backboneOfHost('notnewshosting.com'), undefined);
  assert.equal(backboneOfHost('127.0.0.1'), undefined);
});
