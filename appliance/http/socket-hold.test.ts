import assert from 'node:assert/strict';
import { test } from 'node:test';
import { holdFromTcpWmem, socketHoldBytes } from './socket-hold.js';

const MIB = 1024 * 1024;

test("what a connection holds unread: the kernel's largest send buffer plus 2 MiB for the client's receive buffer", () => {
  assert.equal(holdFromTcpWmem('4096\t16384\t4194304\n'), 6 * MIB);
  assert.equal(holdFromTcpWmem('4096 16384 16777216'), 18 * MIB, 'a host with larger buffers proves later');
  for (const unreadable of [undefined, '', 'garbage', '4096 16384 0'])
    assert.equal(holdFromTcpWmem(unreadable), 6 * MIB, `Linux's default for ${JSON.stringify(unreadable)}`);
  assert.ok(socketHoldBytes() > MIB, 'read from this host once');
});
