import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientAddress, parseProxyEntry, TrustedProxies } from './client-address.js';

test('proxy entries are addresses or CIDR ranges, IPv4 or IPv6; anything else is refused', () => {
  for (const ok of ['10.0.0.2', '172.16.0.0/12', '::1', 'fd00::/8', '0.0.0.0/0']) assert.ok(parseProxyEntry(ok), ok);
  for (const bad of ['', 'proxy.local', '10.0.0.0/33', '::/129', '10.0.0.0/8/1', '10.0.0.0/x', '10.0.0'])
    assert.equal(parseProxyEntry(bad), null, bad);
});

test('the client is the rightmost forwarded address that is not a trusted proxy', () => {
  const proxies = new TrustedProxies(['127.0.0.1', '10.0.0.0/8']);
  assert.equal(clientAddress('127.0.0.1', '1.1.1.1, 2.2.2.2, 10.0.0.5', proxies), '2.2.2.2');
  assert.equal(clientAddress('::ffff:127.0.0.1', '2.2.2.2', proxies), '2.2.2.2', 'IPv4-mapped peer');
  assert.equal(clientAddress('127.0.0.1', undefined, proxies), '127.0.0.1', 'no header: the proxy itself');
  assert.equal(clientAddress('127.0.0.1', '10.0.0.7, 10.0.0.5', proxies), '10.0.0.7', 'all trusted: the leftmost');
  assert.equal(clientAddress('127.0.0.1', 'garbage, 10.0.0.5', proxies), '10.0.0.5', 'garbage stops the walk');
  assert.equal(clientAddress('8.8.8.8', '2.2.2.2', proxies), '8.8.8.8', 'untrusted peer: header ignored');
  assert.equal(clientAddress('8.8.8.8', '2.2.2.2', new TrustedProxies(['not-an-ip'])), '8.8.8.8');
});
