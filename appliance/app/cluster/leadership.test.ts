import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { test } from 'node:test';
import { memoryLogger } from '../../logging/logger.js';
import { ALWAYS_LEADER, gateWork, type BackgroundWork, type Leadership, type NodeRole } from './leadership.js';

/** The term work runs in (as store/pg/leader-fence.ts keeps it for the real lease). */
const term = new AsyncLocalStorage<number>();

/** A lease moved by hand; each gain of the lead is a new term. */
class FakeLease implements Leadership {
  role: NodeRole = 'follower';
  terms = 0;
  runAsLeader<T>(work: () => T): T {
    return term.run(this.terms, work);
  }
  private readonly listeners = new Set<(role: NodeRole) => void>();
  onChange(change: (role: NodeRole) => void): () => void {
    this.listeners.add(change);
    return () => this.listeners.delete(change);
  }
  set(role: NodeRole): void {
    if (role === 'leader' && this.role !== 'leader') this.terms++;
    this.role = role;
    for (const l of this.listeners) l(role);
  }
}

/** Work that records what happened to it and checks it is never started twice or stopped when not running. */
function work(name: string, log: string[], opts: { startMs?: number; failStart?: boolean } = {}) {
  let running = 0;
  const w: BackgroundWork & { running: () => number } = {
    name,
    running: () => running,
    async start() {
      const inTerm = term.getStore();
      log.push(`start ${name}${inTerm ? ` (term ${inTerm})` : ''}`);
      if (opts.startMs) await new Promise((r) => setTimeout(r, opts.startMs));
      if (opts.failStart) throw new Error('cannot start');
      running++;
      assert.equal(running, 1, `${name} started twice`);
    },
    async stop(lost) {
      log.push(`stop ${name}${lost ? ' (lost)' : ''}`);
      running = Math.max(0, running - 1);
    },
  };
  return w;
}

const settled = () => new Promise((r) => setTimeout(r, 0));

test('one node on LMDB leads at once and stops its work for good at the app stop', async () => {
  const log: string[] = [];
  const gate = gateWork(ALWAYS_LEADER, [work('imports', log), work('health', log)], memoryLogger());
  await settled();
  assert.deepEqual(log, ['start imports', 'start health']);
  await gate.stop();
  assert.deepEqual(log, ['start imports', 'start health', 'stop health', 'stop imports']);
});

test('a follower runs nothing; gaining the lead starts the work, losing it stops it (lost), gaining again restarts', async () => {
  const log: string[] = [];
  const lease = new FakeLease();
  const gate = gateWork(lease, [work('imports', log), work('health', log)], memoryLogger());
  await settled();
  assert.deepEqual(log, []);
  lease.set('leader');
  await settled();
  assert.deepEqual(log, ['start imports (term 1)', 'start health (term 1)'], 'started inside the term: fenced');
  lease.set('follower');
  await settled();
  assert.deepEqual(log.slice(2), ['stop health (lost)', 'stop imports (lost)']);
  lease.set('leader');
  await settled();
  await gate.stop();
  assert.deepEqual(log.slice(4), ['start imports (term 2)', 'start health (term 2)', 'stop health', 'stop imports']);
  lease.set('leader'); // after the app's stop a change does nothing
  await settled();
  assert.equal(log.length, 8);
});

test('a flap while the work is still starting ends in the latest role, never started twice', async () => {
  const log: string[] = [];
  const lease = new FakeLease();
  const imports = work('imports', log, { startMs: 20 });
  const gate = gateWork(lease, [imports], memoryLogger());
  lease.set('leader');
  lease.set('follower');
  lease.set('leader');
  lease.set('follower');
  lease.set('leader');
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(imports.running(), 1);
  assert.deepEqual(log, ['start imports (term 3)']);
  lease.set('follower');
  lease.set('leader');
  lease.set('follower');
  await settled();
  await gate.stop();
  assert.equal(imports.running(), 0);
  assert.deepEqual(log, ['start imports (term 3)', 'stop imports (lost)']);
});

test('work that cannot start is logged and does not keep the rest from starting', async () => {
  const log: string[] = [];
  const logger = memoryLogger();
  const gate = gateWork(ALWAYS_LEADER, [work('imports', log, { failStart: true }), work('health', log)], logger);
  await settled();
  assert.deepEqual(log, ['start imports', 'start health']);
  assert.ok(logger.lines.some((l) => l.includes('background work could not start') && l.includes('imports')));
  await gate.stop();
});
