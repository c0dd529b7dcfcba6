// Finds what keeps a test file's process alive after its tests ended (a timer, socket, server or worker a close
// path left open): `node --import tsx --import ./tests/support/linger/report-handles.mjs <file>`. Once every test
// has ended it waits LINGER_GRACE_MS (10 s by default, on a timer that keeps nothing alive); a process still running
// then prints its active resources with the stack that created each, and exits 99. A process that exits on its own
// prints nothing more. Promises, one-tick resources and node:test's own are not tracked.
import { createHook } from 'node:async_hooks';
import { writeSync } from 'node:fs';
import { after } from 'node:test';

const GRACE_MS = Number(process.env.LINGER_GRACE_MS ?? 10_000);
const SKIPPED = new Set(['PROMISE', 'TickObject', 'Immediate', 'FSREQCALLBACK', 'FSREQPROMISE', 'Test']);
const live = new Map();

createHook({
  init(id, type, _trigger, resource) {
    if (SKIPPED.has(type)) return;
    live.set(id, { type, resource, stack: new Error().stack.split('\n').slice(2, 14).join('\n') });
  },
  destroy(id) {
    live.delete(id);
  },
}).enable();

function keepsAlive(resource) {
  try {
    return typeof resource?.hasRef === 'function' ? resource.hasRef() : 'unknown';
  } catch {
    return 'unknown';
  }
}

after(() => {
  setTimeout(() => {
    const lines = [`LINGER: still running ${GRACE_MS} ms after the last test: ${process.getActiveResourcesInfo()}`];
    for (const { type, resource, stack } of live.values()) {
      const alive = keepsAlive(resource);
      if (alive !== false) lines.push(`--- ${type} (keeps the process alive: ${alive})\n${stack}`);
    }
    writeSync(2, lines.join('\n') + '\n');
    process.exit(99);
  }, GRACE_MS).unref();
});
