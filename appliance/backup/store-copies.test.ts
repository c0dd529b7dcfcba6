import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackup, prepareRestore, RestoreRefused, type BackupManifest } from './index.js';
import { chooseStoreCopy } from './store-copies.js';

const manifest = (store: 'lmdb' | 'postgres', names: string[]): BackupManifest => ({
  format: 1,
  spoolVersion: '1.0.0',
  created: '2026-11-28T00:00:00.000Z',
  store,
  entries: names.map((name) => ({ name, size: 1, sha256: '' })),
});
const both = manifest('postgres', ['db/postgres.dump', 'db/data.mdb', 'config.yaml']);
const dumpOnly = manifest('postgres', ['db/postgres.dump', 'config.yaml']);
const neutralOnly = manifest('postgres', ['db/data.mdb', 'config.yaml']);

test('an LMDB install takes a PostgreSQL archive from its neutral copy and refuses one without, naming why', () => {
  assert.equal(chooseStoreCopy(both, 'lmdb', () => true).copy, 'lmdb');
  assert.equal(chooseStoreCopy(manifest('lmdb', ['db/data.mdb']), 'lmdb', () => true).copy, 'lmdb');
  assert.throws(
    () => chooseStoreCopy(dumpOnly, 'lmdb', () => true),
    (err: Error) =>
      err instanceof RestoreRefused && /PostgreSQL dump only, without the backend-neutral copy/.test(err.message),
  );
});

test('a PostgreSQL install takes the dump with pg_restore, else the neutral copy, else refuses', () => {
  assert.deepEqual(
    chooseStoreCopy(both, 'postgres', () => true),
    {
      copy: 'dump',
      why: 'the PostgreSQL dump, with pg_restore',
    },
  );
  assert.match(chooseStoreCopy(both, 'postgres', () => false).why, /^pg_restore is not installed: the archive's/);
  assert.match(chooseStoreCopy(neutralOnly, 'postgres', () => true).why, /has no dump \(pg_dump was not installed/);
  assert.equal(chooseStoreCopy(manifest('lmdb', ['db/data.mdb']), 'postgres', () => true).copy, 'lmdb');
  assert.throws(() => chooseStoreCopy(dumpOnly, 'postgres', () => false), /pg_restore is not installed/);
});

test('an archive of a PostgreSQL store without the neutral copy is refused by an LMDB install before anything', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-old-pg-archive-'));
  try {
    const [dump, configPath] = [join(dir, 'postgres.dump'), join(dir, 'config.yaml')];
    writeFileSync(dump, 'PGDMP as an older Spool wrote it');
    writeFileSync(configPath, 'metadata:\n  root_path: ./metadata\n');
    const archive = join(dir, 'old.tar');
    await createBackup(
      {
        store: 'postgres',
        snapshot: async () => [{ name: 'db/postgres.dump', path: dump }],
        configPath,
        folders: [],
        spoolVersion: '0.9.0',
      },
      { file: archive },
    );
    let safetyBackups = 0;
    await assert.rejects(
      prepareRestore({
        archive,
        stagingDir: join(dir, 'staging'),
        target: {
          dbDir: join(dir, 'live', 'db'),
          local: { rootPath: './metadata', databaseUrl: '' },
          configPath: join(dir, 'live', 'config.yaml'),
          folders: [],
        },
        spoolVersion: '1.0.0',
        checkStore: async () => undefined,
        safetyBackup: async () => (safetyBackups++, null),
      }),
      (err: Error) =>
        err instanceof RestoreRefused && /without the backend-neutral copy an LMDB install/.test(err.message),
    );
    assert.equal(safetyBackups, 0, 'refused before the safety backup: nothing was changed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
