import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backupInstall, restoreInstall } from '../backup-command.js';
import { ConfigService } from '../config/index.js';
import { QueueTables } from '../importer/queue.store.js';
import type { QueueRecord } from '../importer/queue.types.js';
import { openStore } from '../store/index.js';
import { RestoreRefused } from './index.js';

const made: string[] = [];
process.on('exit', () => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spool-backup-'));
  made.push(dir);
  return dir;
}

function draft(name: string): Omit<QueueRecord, 'id'> {
  return {
    nzbPath: `/nzb/${name}.nzb`,
    name,
    category: 'movies',
    priority: 0,
    status: 'completed',
    targetPath: `/movies/${name}`,
    fileSize: 1_234_567,
    retryCount: 0,
    maxRetries: 3,
    errorMessage: null,
    nextAttemptAt: null,
    contentHash: name.padEnd(64, '0'),
    createdAt: 1,
    updatedAt: 2,
    startedAt: 1,
    completedAt: 2,
  };
}

/** A data dir with its default config, a queue of imported-like records and one PAR2 patch blob. */
async function installWith(names: string[]): Promise<{ dataDir: string; patch: Buffer }> {
  const dataDir = tempDir();
  const config = await ConfigService.open({ dataDir, env: {} });
  const store = openStore({ rootPath: resolve(dataDir, config.get().metadata.root_path) });
  const queue = new QueueTables(store);
  for (const n of names) queue.insert(draft(n));
  await store.close();
  const patch = Buffer.from(names.join('|').repeat(100));
  mkdirSync(join(dataDir, 'patches'), { recursive: true });
  writeFileSync(join(dataDir, 'patches', 'p1.bin'), patch);
  mkdirSync(join(dataDir, 'sidecars'), { recursive: true });
  writeFileSync(join(dataDir, 'sidecars', '0a1b-2c'), `subtitles of ${names.join(',')}`);
  return { dataDir, patch };
}

async function queueNames(dataDir: string): Promise<string[]> {
  const config = await ConfigService.open({ dataDir, env: {} });
  const store = openStore({ rootPath: resolve(dataDir, config.get().metadata.root_path) });
  try {
    return new QueueTables(store)
      .list({ offset: 0, limit: 100 } as never)
      .items.map((r) => r.name)
      .sort();
  } finally {
    await store.close();
  }
}

test('backup then restore into a fresh data dir reads every record and patch back', async () => {
  const { dataDir, patch } = await installWith(['Alpha.2024', 'Beta.2025', 'Gamma.2026']);
  const archive = join(tempDir(), 'b.tar');
  await backupInstall(dataDir, archive);
  assert.ok(existsSync(archive) && !existsSync(`${archive}.partial`));

  const fresh = tempDir();
  const out = await restoreInstall(fresh, archive);
  assert.equal(out.safetyBackup, null, 'a fresh dir has no state to keep');
  assert.deepEqual(await queueNames(fresh), ['Alpha.2024', 'Beta.2025', 'Gamma.2026']);
  assert.deepEqual(readFileSync(join(fresh, 'patches', 'p1.bin')), patch);
  assert.equal(
    readFileSync(join(fresh, 'sidecars', '0a1b-2c'), 'utf8'),
    'subtitles of Alpha.2024,Beta.2025,Gamma.2026',
  );
  const restoredConfig = readFileSync(join(fresh, 'config.yaml'), 'utf8');
  const pinned = readFileSync(join(dataDir, 'config.yaml'), 'utf8').replace(dataDir, fresh);
  assert.equal(restoredConfig, pinned, "the config comes back with this install's metadata.root_path");
});

test('a restore over a live install writes a safety backup of it first', async () => {
  const { dataDir: source } = await installWith(['Old.Show']);
  const archive = join(tempDir(), 'old.tar');
  await backupInstall(source, archive);
  const { dataDir } = await installWith(['Current.One', 'Current.Two']);

  const out = await restoreInstall(dataDir, archive);
  assert.deepEqual(await queueNames(dataDir), ['Old.Show']);
  assert.ok(out.safetyBackup && existsSync(out.safetyBackup));
  const back = tempDir();
  await restoreInstall(back, out.safetyBackup);
  assert.deepEqual(await queueNames(back), ['Current.One', 'Current.Two']);
});

test('a corrupted archive is refused and the current state is untouched', async () => {
  const { dataDir: source } = await installWith(['Good.Movie']);
  const archive = join(tempDir(), 'c.tar');
  await backupInstall(source, archive);
  const bytes = readFileSync(archive);
  bytes[512 + 4096] = bytes[512 + 4096]! ^ 0xff; // inside the LMDB snapshot, the first entry's bytes
  writeFileSync(archive, bytes);

  const { dataDir, patch } = await installWith(['Current.Movie']);
  const before = readdirSync(dataDir).sort();
  await assert.rejects(restoreInstall(dataDir, archive), (err: unknown) => {
    assert.ok(err instanceof RestoreRefused);
    assert.match(err.message, /db\/data\.mdb fails its sha256 checksum/);
    return true;
  });
  assert.deepEqual(await queueNames(dataDir), ['Current.Movie']);
  assert.deepEqual(readFileSync(join(dataDir, 'patches', 'p1.bin')), patch);
  assert.deepEqual(readdirSync(dataDir).sort(), before, 'no staging or safety files left behind');
});

test('an archive cut short (no manifest) is refused', async () => {
  const { dataDir: source } = await installWith(['Cut.Short']);
  const archive = join(tempDir(), 'd.tar');
  await backupInstall(source, archive);
  writeFileSync(archive, readFileSync(archive).subarray(0, 4096));
  await assert.rejects(restoreInstall(tempDir(), archive), RestoreRefused);
});

test('kill -9 in the middle of a backup leaves only the .partial file, never the archive', async () => {
  const { dataDir } = await installWith(['Killed.Midway']);
  const file = join(tempDir(), 'k.tar');
  const script = [
    `import { openStore } from ${JSON.stringify(fileURLToPath(new URL('../store/index.ts', import.meta.url)))};`,
    `import { createBackup, snapshotLmdb } from ${JSON.stringify(fileURLToPath(new URL('./index.ts', import.meta.url)))};`,
    `const store = openStore({ rootPath: ${JSON.stringify(join(dataDir, 'metadata'))} });`,
    `await createBackup({ store: 'lmdb', snapshot: (t) => snapshotLmdb(store, t), configPath: ${JSON.stringify(join(dataDir, 'config.yaml'))},`,
    `  folders: [{ name: 'patches', dir: ${JSON.stringify(join(dataDir, 'patches'))}, file: /\\.bin$/ }], spoolVersion: '0.0.1' },`,
    `  { file: ${JSON.stringify(file)}, afterEntry: (n) => { if (n === 'config.yaml') process.kill(process.pid, 'SIGKILL'); } });`,
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
  const signal = await new Promise((done) => child.on('exit', (_code, sig) => done(sig)));
  assert.equal(signal, 'SIGKILL');
  assert.equal(existsSync(file), false, 'no archive that looks complete');
  assert.equal(existsSync(`${file}.partial`), true);
  await assert.rejects(restoreInstall(tempDir(), `${file}.partial`), RestoreRefused);
});
