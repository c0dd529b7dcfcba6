import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProbeFinding } from '../articles/index.js';
import type { FileLayout } from '../layout/index.js';
import type { VfsNode } from '../vfs/types.js';
import { ImportError } from './import-errors.js';
import type { Par2Outcome } from '../repair/par2-outcome.js';
import { repairJob, type ByteRange, type ImportRepairer } from './import-repair.js';

const layout: FileLayout = {
  size: 60,
  segments: [
    { messageId: 'a@x', start: 0, end: 20 },
    { messageId: 'b@x', start: 20, end: 40 },
    { messageId: 'c@x', start: 40, end: 60 },
  ],
};

function files() {
  const removed: string[] = [];
  return {
    removed,
    stat: (path: string) => ({ path, name: path.split('/').pop()!, type: 'file' }) as VfsNode,
    layout: () => layout,
    remove: async (path: string) => {
      removed.push(path);
      return [path];
    },
  };
}

function repairer(outcome: Par2Outcome) {
  const asked: { path: string; bad: ByteRange[] }[] = [];
  const r: ImportRepairer = {
    enabled: true,
    async repair(path, _signal, knownBad) {
      asked.push({ path, bad: await knownBad(path) });
      return outcome;
    },
  };
  return { r, asked };
}

const finding: ProbeFinding = { name: 'Film.mkv', checked: 3, missing: 1, total: 3, firstMissing: 'b@x' };
const job = {
  dir: '/complete/movies/Film',
  files: ['/complete/movies/Film/Film.mkv'],
  findings: [finding],
  sampled: false,
  signal: new AbortController().signal,
};

test('a repaired file: resolves; the repair starts from the bytes of the article the probe found missing', async () => {
  const { r, asked } = repairer({ kind: 'repaired', slices: 4, bytes: 20, paths: [job.files[0]!] });
  const f = files();
  await repairJob(r, f, job);
  assert.deepEqual(asked, [{ path: job.files[0], bad: [{ start: 20, end: 40 }] }]);
  assert.deepEqual(f.removed, []);
});

test('PAR2 cannot cover it: the job leaves the tree and the import fails for good with both reasons', async () => {
  const { r } = repairer({
    kind: 'not_coverable',
    reason: 'PAR2: cannot repair: 12 slices missing, 4 recovery slices',
  });
  const f = files();
  await assert.rejects(repairJob(r, f, job), (err: unknown) => {
    assert.ok(err instanceof ImportError);
    assert.equal(err.retryable, false);
    assert.match(err.message, /^Missing articles on every provider in 1 file\(s\): Film\.mkv: 1 of 3 articles missing/);
    assert.match(err.message, /PAR2 repair not possible: PAR2: cannot repair: 12 slices missing, 4 recovery slices$/);
    return true;
  });
  assert.deepEqual(f.removed, [job.dir]);
});

test('providers unreachable during the repair: a retryable failure, never a verdict; the job is kept', async () => {
  const { r } = repairer({ kind: 'unreachable', reason: 'connection refused' });
  const f = files();
  await assert.rejects(repairJob(r, f, job), (err: unknown) => {
    assert.ok(err instanceof ImportError);
    assert.equal(err.retryable, true);
    assert.match(err.message, /waits for the providers: connection refused/);
    return true;
  });
  assert.deepEqual(f.removed, []);
});

test('a damaged file that is not a file of the job (inside archive volumes) fails with that reason', async () => {
  const { r, asked } = repairer({ kind: 'repaired', slices: 1, bytes: 1, paths: [] });
  const f = files();
  await assert.rejects(repairJob(r, f, { ...job, files: ['/complete/movies/Film/Inner.mkv'] }), /inside an archive/);
  assert.deepEqual(asked, []);
});
