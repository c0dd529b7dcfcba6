import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import {
  holdFromTcpWmem,
  limitListenSendBuffer,
  SMALL_BUFFER_RECEIVE_ALLOWANCE,
  socketHoldBytes,
} from './socket-hold.js';

const MIB = 1024 * 1024;

test("what a connection holds unread: the kernel's largest send buffer plus 2 MiB for the client's receive buffer", () => {
  assert.equal(holdFromTcpWmem('4096\t16384\t4194304\n'), 6 * MIB);
  assert.equal(holdFromTcpWmem('4096 16384 16777216'), 18 * MIB, 'a host with larger buffers proves later');
  for (const unreadable of [undefined, '', 'garbage', '4096 16384 0'])
    assert.equal(holdFromTcpWmem(unreadable), 6 * MIB, `Linux's default for ${JSON.stringify(unreadable)}`);
});

test('with the listening socket’s send buffer set, the hold is that buffer plus the receive allowance', async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  try {
    const set = limitListenSendBuffer(port);
    assert.ok('bytes' in set, JSON.stringify(set));
    assert.equal(socketHoldBytes(), set.bytes + SMALL_BUFFER_RECEIVE_ALLOWANCE);
    assert.ok(socketHoldBytes() < 3 * MIB, 'far under the autotuned hold');
  } finally {
    server.close();
  }
  const unset = limitListenSendBuffer(port);
  assert.deepEqual(unset, { unavailable: `no listening TCP socket of this process has port ${port}` });
  assert.ok(socketHoldBytes() > 4 * MIB, 'back to the autotuned rule (tcp_wmem max + 2 MiB) when it could not be set');
});
