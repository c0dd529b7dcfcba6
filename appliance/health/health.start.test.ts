import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, test } from 'node:test';
import type { Store } from '../store/index.js';
import { memoryLogger } from '../logging/logger.js';
import { healthHarness, type HealthHarness } from '../../tests/support/health/harness.js';
import { createHealth } from './health.domain.js';
import { openHealthStore } from './health.store.js';

let h: HealthHarness;
afterEach(() => h?.close());

/** The store with its `health-records` database counting the reads of records (get, getRange). */
function counting(store: Store): { store: Store; reads: () => number } {
  let reads = 0;
  const wrap = <T extends object>(db: T): T =>
    new Proxy(db, {
      get(target, key) {
        const v = Reflect.get(target, key) as unknown;
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          if (key === 'get') reads++;
          if (key === 'getRange')
            return [...(v as (...a: unknown[]) => Iterable<unknown>).apply(target, args)].map((e) => (reads++, e));
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const counted = new Proxy(store, {
    get(target, key) {
      if (key !== 'openDb') return Reflect.get(target, key);
      return (name: string, options?: object) => {
        const db = target.openDb(name, options);
        return name === 'health-records' ? wrap(db) : db;
      };
    },
  });
  return { store: counted, reads: () => reads };
}

/** A second life of health on the same LMDB files and tree (a restart), its record reads and tree walks counted. */
async function restart() {
  const { store, reads } = counting(h.store);
  const healthStore = openHealthStore(store, h.events);
  const atOpen = reads();
  let walks = 0;
  const vfs = Object.create(h.vfs) as typeof h.vfs;
  vfs.walkFiles = function* (path?: string) {
    walks++;
    yield* h.vfs.walkFiles(path);
  };
  const domain = createHealth({
    store: healthStore,
    config: h.config,
    vfs,
    client: h.articles,
    clock: h.clock,
    logger: memoryLogger(),
  });
  await domain.close(); // after start's reconcile

  return { healthStore, atOpen, walks };
}

async function library() {
  h = await healthHarness();
  const paths = [];
  for (const name of ['A', 'B', 'C', 'D']) paths.push(await h.addFile(name, 4));
  h.articles.missing.add('A-0');
  const r = await h.health.service.check(paths[0]!, undefined, true);
  await h.drain();
  assert.equal((await h.health.service.byId(r.id)).status, 'corrupted');
  return paths;
}

test('a clean restart loads only the records with bad news and walks neither the tree nor every record', async () => {
  const [bad] = await library();
  await h.health.close();
  const { healthStore, atOpen, walks } = await restart();
  assert.equal(atOpen, 1, 'the one corrupted record is read at open, not all four');
  assert.equal(healthStore.verdicts.corrupted(bad!), true);
  assert.equal(walks, 0, 'the tree did not change since the stop: no walk');
});

test('after a crash the walk runs and a record the crash lost is made again', async () => {
  const paths = await library();
  await h.health.runner.stop(); // no clean close: health never noted itself in step with the tree
  const lost = (await h.healthStore.byPath(paths[3]!))!;
  await h.healthStore.remove(lost.id);
  const { healthStore, walks } = await restart();
  assert.equal(walks, 1);
  assert.equal((await healthStore.byPath(paths[3]!))?.status, 'pending', 'the lost record is back');
});

test('tree writes after health stopped following make the next start walk', async () => {
  const paths = await library();
  await h.health.close();
  const lost = (await h.healthStore.byPath(paths[2]!))!;
  await h.healthStore.remove(lost.id);
  await h.vfs.addJob({ category: 'movies', jobName: 'Late', files: [] });
  const { healthStore, walks } = await restart();
  assert.equal(walks, 1);
  assert.equal((await healthStore.byPath(paths[2]!))?.status, 'pending');
});

test('a worker left to the leader checks nothing until started, and runs again when started after a stop', async () => {
  h = await healthHarness({}, { startWorker: false });
  const path = await h.addFile('A', 4);
  const waiting = async () => h.healthStore.manualCount();
  await h.health.service.check(path, undefined, true);
  await h.clock.advance(120_000);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(await waiting(), 1, 'a follower runs no check');
  await h.health.worker.start();
  await h.drain();
  assert.equal(await waiting(), 0, 'the leader ran it');
  await h.health.worker.stop();
  await h.health.service.check(path, undefined, true);
  await h.clock.advance(120_000);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(await waiting(), 1, 'stopped: no check');
  await h.health.worker.start();
  await h.drain();
  assert.equal(await waiting(), 0, 'leading again: checks run again');
});

test('a worker stopped before start reconcile is done stays stopped', async () => {
  h = await healthHarness({}, { startWorker: false });
  const path = await h.addFile('A', 4);
  await h.health.service.check(path, undefined, true);
  const starting = h.health.worker.start();
  await h.health.worker.stop();
  await starting;
  await h.clock.advance(120_000);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(await h.healthStore.manualCount(), 1, 'no check ran');
});

test('checks run in the async context the worker was started in, whoever asks for them (the leader term: the fence)', async () => {
  h = await healthHarness({}, { startWorker: false });
  const path = await h.addFile('A', 4);
  const term = new AsyncLocalStorage<string>();
  const seen = new Set<string | undefined>();
  const stat = h.articles.stat.bind(h.articles);
  h.articles.stat = (id, opts) => {
    seen.add(term.getStore());
    return stat(id, opts);
  };
  await term.run('term 1', () => h.health.worker.start());
  // asked through a route (outside the term): the request wakes the worker, whose check runs in its term
  await term.run('a route', () => h.health.service.check(path, undefined, true));
  await h.drain();
  assert.equal(await h.healthStore.manualCount(), 0, 'the check ran');
  assert.deepEqual([...seen], ['term 1']);
});
