import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../clock/manual-clock.js';
import { createBackup } from './backup.service.js';
import { memoryLogger } from '../logging/logger.js';
import { BackupsService } from './backups.service.js';
import { BackupCatalog, backupName } from './catalog.js';
import { CronTimer, nextRunAfter } from './schedule.js';

const dir = mkdtempSync(join(tmpdir(), 'spool-catalog-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** A real archive (an empty store stand-in) whose manifest says it was made at `at`. */
async function archiveAt(folder: string, name: string, at: Date): Promise<void> {
  const config = join(folder, 'config.yaml');
  writeFileSync(config, 'webdav: {}\n');
  const snapshot = async (scratch: string) => {
    writeFileSync(join(scratch, 'data.mdb'), 'not a real store');
    return [{ name: 'db/data.mdb', path: join(scratch, 'data.mdb') }];
  };
  const source = { store: 'lmdb' as const, snapshot, configPath: config, folders: [], spoolVersion: '0.1.0' };
  await createBackup(source, { file: join(folder, name), now: () => at });
}

test('the catalog lists archives by their manifests, newest first, and prunes by count and age but never a kept one', async () => {
  const folder = mkdtempSync(join(dir, 'list-'));
  const catalog = new BackupCatalog(folder);
  const day = 86_400_000;
  const now = Date.parse('2026-06-30T03:00:00Z');
  for (let i = 0; i < 6; i++) {
    const at = new Date(now - i * 10 * day);
    await archiveAt(folder, backupName(i === 5 ? 'manual' : 'scheduled', at), at);
  }
  writeFileSync(join(folder, 'scheduled-x.tar.partial'), 'a killed backup');
  const listed = await catalog.list();
  assert.equal(listed.length, 6, 'the .partial is not a backup');
  assert.deepEqual(
    listed.map((i) => i.created),
    [...listed.map((i) => i.created)].sort().reverse(),
  );
  assert.equal(listed[0]!.spool_version, '0.1.0');
  assert.equal(listed[5]!.kind, 'manual');
  await catalog.setKeep(listed[5]!.name, true);
  // keep 3 by count, and none older than 25 days: the three newest (0, 10, 20 days) stay, the kept one too.
  const removed = await catalog.prune({ keepCount: 3, keepDays: 25 }, now);
  assert.deepEqual(removed.sort(), [listed[3]!.name, listed[4]!.name].sort());
  const left = (await catalog.list()).map((i) => i.name);
  assert.deepEqual(left, [listed[0]!.name, listed[1]!.name, listed[2]!.name, listed[5]!.name]);
  assert.ok(readdirSync(folder).includes(`${listed[5]!.name}.keep`));
  assert.equal(catalog.pathOf('../etc/passwd'), null, 'a name is never a path');
});

test('the cron timer fires on the injected clock at the times the expression names', async () => {
  const start = Date.parse('2026-06-30T02:59:00Z');
  assert.equal(nextRunAfter('0 3 * * *', start), Date.parse('2026-06-30T03:00:00Z'));
  assert.equal(nextRunAfter('off', start), null);
  const clock = new ManualClock(start);
  const fired: number[] = [];
  let expr = '0 3 * * *';
  const timer = new CronTimer(
    clock,
    () => expr,
    async () => void fired.push(clock.now()),
  );
  timer.start();
  assert.equal(timer.next, Date.parse('2026-06-30T03:00:00Z'));
  await clock.advance(60_000);
  assert.deepEqual(fired, [Date.parse('2026-06-30T03:00:00Z')]);
  await clock.advance(86_400_000);
  assert.equal(fired.length, 2, 'the next night');
  expr = 'off';
  timer.reschedule();
  assert.equal(timer.next, null);
  await clock.advance(3 * 86_400_000);
  assert.equal(fired.length, 2, 'off: no more');
  await timer.stop();
});

test('a schedule preview reads the expression as the timer does: the next three runs, off, and croner refusing one', () => {
  const clock = new ManualClock(Date.parse('2026-06-30T02:59:00Z'));
  const refused = () => Promise.reject(new Error('not used'));
  const service = new BackupsService({
    catalog: new BackupCatalog(dir),
    clock,
    logger: memoryLogger(),
    spoolVersion: '0.1.0',
    folders: [],
    settings: () => ({ schedule: '30 4 * * 1', keepCount: 7, keepDays: 30 }),
    write: refused,
    prepare: refused,
    restartInto: () => undefined,
  });
  assert.deepEqual(service.preview('0 3 * * *'), {
    schedule: '0 3 * * *',
    error: null,
    next_runs: ['2026-06-30T03:00:00.000Z', '2026-07-01T03:00:00.000Z', '2026-07-02T03:00:00.000Z'],
  });
  // Without an expression: the saved schedule (Mondays at 04:30; 2026-06-30 is a Tuesday).
  assert.deepEqual(service.preview().next_runs, [
    '2026-07-06T04:30:00.000Z',
    '2026-07-13T04:30:00.000Z',
    '2026-07-20T04:30:00.000Z',
  ]);
  assert.deepEqual(service.preview('off'), { schedule: 'off', error: null, next_runs: [] });
  for (const bad of ['61 3 * * *', 'every night', '']) {
    const answer = service.preview(bad);
    assert.deepEqual(answer.next_runs, [], bad);
    assert.ok(answer.error && answer.error.length > 0, `${bad}: ${JSON.stringify(answer)}`);
  }
});
