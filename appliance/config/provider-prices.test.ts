/** The fit report's keys of a provider entry (docs/configuration.md "providers"): defaults, field messages, reads. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { candidateProviders, readProviders } from './providers.js';
import { checkProvider, providerFieldMessage } from '../../tests/support/config/provider-entry.js';

const check = checkProvider;
const messageOf = providerFieldMessage;

test('a provider entry is no candidate, has no price and a budget of 600 STATs an hour by default', () => {
  const result = check({});
  assert.ok(result.ok);
  const p = result.config.providers[0]!;
  assert.equal(p.candidate, false);
  assert.equal(p.fit_stats_per_hour, 600);
  assert.equal(p.price_per_month, null);
  assert.equal(p.price_per_block, null);
  assert.equal(p.block_size_gb, null);
  assert.ok(check({ candidate: true, price_per_month: 9.99 }).ok);
  assert.ok(check({ price_per_block: 20, block_size_gb: 500 }).ok);
});

test('bad fit and price values are refused with the field message', () => {
  assert.match(messageOf({ price_per_month: -1 }, 'price_per_month') ?? '', /cannot be negative/);
  assert.match(messageOf({ price_per_month: '9' }, 'price_per_month') ?? '', /number/);
  assert.match(messageOf({ block_size_gb: 0 }, 'block_size_gb') ?? '', /more than 0 GB/);
  assert.match(messageOf({ fit_stats_per_hour: 0 }, 'fit_stats_per_hour') ?? '', /between 1 and 100000/);
  assert.match(messageOf({ fit_stats_per_hour: 1.5 }, 'fit_stats_per_hour') ?? '', /whole number/);
  assert.match(messageOf({ candidate: 'yes' }, 'candidate') ?? '', /true or false/);
  assert.match(messageOf({ price_per_block: 20 }, 'block_size_gb') ?? '', /needs the block size/);
  assert.match(
    messageOf({ price_per_month: 5, price_per_block: 20, block_size_gb: 100 }, 'price_per_block') ?? '',
    /per month or per block, not both/,
  );
});

test('reads never see a candidate: the pool gets the others, the sampler the candidates', () => {
  const result = check({});
  assert.ok(result.ok);
  const base = result.config.providers[0]!;
  const list = [
    { ...base, id: 'a' },
    { ...base, id: 'trial', candidate: true },
    { ...base, id: 'b' },
  ];
  assert.deepEqual(
    readProviders(list).map((p) => p.id),
    ['a', 'b'],
  );
  assert.deepEqual(
    candidateProviders(list).map((p) => p.id),
    ['trial'],
  );
});
