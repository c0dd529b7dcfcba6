import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RootDatabase } from 'lmdb';
import { trackWriteBatches } from './write-batches.js';

/** An environment whose writer reports only when told, as lmdb-js's native one reports from its threads. */
function fakeRoot() {
  const reports: ((status: number) => unknown)[] = [];
  const env = {
    startWriting(_address: number, report: (status: number) => unknown) {
      reports.push(report);
    },
  };
  return { root: { env } as unknown as RootDatabase, env, reports };
}

async function settledNow(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  return done;
}

test('settled waits for every batch to end, an earlier one ending after a later one too', async () => {
  const { root, env, reports } = fakeRoot();
  const batches = trackWriteBatches(root);
  assert.equal(await settledNow(batches.settled()), true, 'no batch: settled at once');
  env.startWriting(1, () => undefined);
  env.startWriting(2, () => undefined);
  const [first, second] = reports;
  first!(2); // its transaction callbacks ran
  first!(1); // its commit is visible: lmdb-js resolves its writes here
  second!(2);
  second!(1);
  second!(0); // the last batch ended: lmdb-js's `flushed` resolves here
  const settled = batches.settled();
  assert.equal(await settledNow(settled), false, 'the first batch is still past its commit, not ended');
  first!(0);
  assert.equal(await settledNow(settled), true);
});

test('a batch that ends with an error code has ended; its callback still gets every report', async () => {
  const { root, env, reports } = fakeRoot();
  const batches = trackWriteBatches(root);
  const seen: number[] = [];
  env.startWriting(1, (s) => seen.push(s));
  reports[0]!(1);
  reports[0]!(-30792); // MDB_MAP_FULL
  reports[0]!(0); // nothing counts twice
  assert.equal(await settledNow(batches.settled()), true);
  assert.deepEqual(seen, [1, -30792, 0]);
});
