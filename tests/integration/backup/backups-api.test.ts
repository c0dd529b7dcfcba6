/**
 * Backups from the running server (docs/backups.md, docs/console-contract.md "Backups"): taken, listed, downloaded,
 * uploaded (a damaged upload refused, nothing kept), kept forever, restored through the supervisor's restart (the
 * library as it was at the backup, a safety backup of the state before), and a damaged archive's restore refused
 * with the library untouched. Real Spool, real LMDB, in-process restarts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../../support/server.js';

interface Envelope<T> {
  success: boolean;
  data: T;
  error?: { code: string; message: string };
}

async function call<T>(srv: TestServer, method: string, path: string, body?: unknown, type = 'application/json') {
  const init: RequestInit = { method, headers: body === undefined ? {} : { 'Content-Type': type } };
  if (body !== undefined) init.body = body instanceof Uint8Array ? body : JSON.stringify(body);
  const res = await fetch(`${srv.baseUrl}${path}`, init);
  return { status: res.status, json: (await res.json()) as Envelope<T> };
}

async function addJob(srv: TestServer, jobName: string): Promise<void> {
  const size = 1000;
  const segments = [{ messageId: `${jobName}@backup.test`, start: 0, end: size }];
  await srv.app().streaming.vfs.addJob({
    category: 'movies',
    jobName,
    files: [{ name: `${jobName}.mkv`, size, layout: () => ({ size, segments }) }],
  });
}

const jobs = (srv: TestServer) =>
  srv
    .app()
    .streaming.vfs.list('/complete/movies')
    .map((n) => n.name)
    .sort();

/** Waits for the supervisor's next completed restart (it logs 'the restored backup serves' or fails loudly). */
async function restarted(srv: TestServer, count: number): Promise<void> {
  while (srv.restarts() < count) await new Promise((r) => setTimeout(r, 50));
}

test('backups are taken, downloaded, uploaded, kept and restored from the running server', async () => {
  const srv = await startServer({ config: { auth: { login_required: false } } });
  try {
    await addJob(srv, 'Before.Backup');
    const made = await call<{ name: string; kind: string; size: number }>(srv, 'POST', '/api/system/backups');
    assert.equal(made.status, 200, JSON.stringify(made.json));
    assert.equal(made.json.data.kind, 'manual');
    const list = await call<{ items: { name: string }[]; schedule: string }>(srv, 'GET', '/api/system/backups');
    assert.deepEqual(
      list.json.data.items.map((i) => i.name),
      [made.json.data.name],
    );
    assert.equal(list.json.data.schedule, '0 3 * * *');

    const download = await fetch(`${srv.baseUrl}/api/system/backups/${made.json.data.name}/download`);
    assert.equal(download.status, 200);
    assert.match(download.headers.get('content-disposition') ?? '', /attachment/);
    const bytes = new Uint8Array(await download.arrayBuffer());
    assert.deepEqual(Buffer.from(bytes), readFileSync(join(srv.dataDir, 'backups', made.json.data.name)));

    const damaged = Buffer.from(bytes);
    damaged[4096] = damaged[4096]! ^ 0xff;
    const refused = await call(srv, 'POST', '/api/system/backups/upload', damaged, 'application/octet-stream');
    assert.equal(refused.status, 400);
    assert.equal(refused.json.error?.code, 'BACKUP_REFUSED');
    assert.deepEqual(readdirSync(join(srv.dataDir, 'backups')), [made.json.data.name], 'nothing kept of it');
    const asText = await call(srv, 'POST', '/api/system/backups/upload', bytes, 'text/plain');
    assert.equal(asText.json.error?.code, 'NOT_JSON');

    const up = await call<{ name: string; kind: string }>(
      srv,
      'POST',
      '/api/system/backups/upload',
      bytes,
      'application/x-tar',
    );
    assert.equal(up.status, 200, JSON.stringify(up.json));
    assert.equal(up.json.data.kind, 'uploaded');
    const kept = await call<{ keep_forever: boolean }>(srv, 'PATCH', `/api/system/backups/${up.json.data.name}`, {
      keep_forever: true,
    });
    assert.equal(kept.json.data.keep_forever, true);

    await addJob(srv, 'After.Backup');
    assert.deepEqual(jobs(srv), ['After.Backup', 'Before.Backup']);
    const restore = await call<{ safety_backup: string; check: { state: string } }>(
      srv,
      'POST',
      `/api/system/backups/${up.json.data.name}/restore`,
    );
    assert.equal(restore.status, 200, JSON.stringify(restore.json));
    await restarted(srv, 1);
    assert.deepEqual(jobs(srv), ['Before.Backup'], 'the library as it was at the backup');
    const after = await call<{ items: { name: string; kind: string }[]; last_restore: { archive: string } }>(
      srv,
      'GET',
      '/api/system/backups',
    );
    assert.equal(after.json.data.last_restore.archive, up.json.data.name);
    const safety = after.json.data.items.find((i) => i.kind === 'pre-restore');
    assert.ok(safety, 'the safety backup of the state before is listed');
    // The pass after the restore: no provider is configured here, so it is skipped and says why.
    let check = { state: 'pending', note: null as string | null };
    while (check.state === 'pending' || check.state === 'running') {
      await new Promise((r) => setTimeout(r, 50));
      const now = await call<{ last_restore: { check: typeof check } }>(srv, 'GET', '/api/system/backups');
      check = now.json.data.last_restore.check;
    }
    assert.deepEqual(check, { ...check, state: 'skipped', note: 'no provider is configured' });

    // A damaged archive in the folder: its restore is refused and the library stays as it is.
    const bad = join(srv.dataDir, 'backups', 'manual-damaged.tar');
    writeFileSync(bad, damaged);
    const no = await call(srv, 'POST', '/api/system/backups/manual-damaged.tar/restore');
    assert.equal(no.json.error?.code, 'BACKUP_REFUSED');
    assert.match(no.json.error?.message ?? '', /sha256/);
    assert.equal(srv.restarts(), 1, 'no restart');
    assert.deepEqual(jobs(srv), ['Before.Backup']);

    // The safety backup restores the state before the first restore.
    const back = await call(srv, 'POST', `/api/system/backups/${safety.name}/restore`);
    assert.equal(back.status, 200, JSON.stringify(back.json));
    await restarted(srv, 2);
    assert.deepEqual(jobs(srv), ['After.Backup', 'Before.Backup']);

    const gone = await call(srv, 'DELETE', `/api/system/backups/${made.json.data.name}`);
    assert.equal(gone.status, 200);
    const missing = await call(srv, 'POST', `/api/system/backups/${made.json.data.name}/restore`);
    assert.equal(missing.json.error?.code, 'NO_SUCH_RECORD');
  } finally {
    await srv.stop();
  }
});
