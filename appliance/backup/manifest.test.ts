import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKUP_FORMAT, compareVersions, parseManifest, RestoreRefused } from './manifest.js';
import { readTar, TAR_END, tarHeader, tarPadding } from './tar.js';

const manifest = (over: object) =>
  Buffer.from(
    JSON.stringify({ format: BACKUP_FORMAT, spoolVersion: '0.1.0', created: 'x', store: 'lmdb', entries: [], ...over }),
  );

test('a manifest from a newer Spool, another format or another store kind is refused', () => {
  assert.equal(parseManifest(manifest({}), '0.1.0').spoolVersion, '0.1.0');
  assert.equal(parseManifest(manifest({ spoolVersion: '0.0.9' }), '0.1.0-alpha').spoolVersion, '0.0.9');
  assert.throws(() => parseManifest(manifest({ spoolVersion: '0.2.0' }), '0.1.0'), /newer than this 0\.1\.0/);
  assert.throws(() => parseManifest(manifest({ format: 2 }), '0.1.0'), /format 2/);
  assert.equal(parseManifest(manifest({ store: 'postgres' }), '0.1.0').store, 'postgres');
  assert.throws(() => parseManifest(manifest({ store: 'mysql' }), '0.1.0'), /mysql store/);
  assert.throws(() => parseManifest(Buffer.from('{not json'), '0.1.0'), RestoreRefused);
});

test('versions compare by their numeric parts', () => {
  assert.ok(compareVersions('0.10.0', '0.9.9') > 0);
  assert.equal(compareVersions('1.2.0-alpha', '1.2'), 0);
  assert.ok(compareVersions('1.2.3', '1.2.4') < 0);
});

test('tar entries read back; a damaged header or a cut archive is named', () => {
  const data = Buffer.from('hello tar');
  const archive = Buffer.concat([tarHeader('a/b.bin', data.length, 0), data, tarPadding(data.length), TAR_END]);
  assert.deepEqual(
    readTar(archive).map((e) => [e.name, e.data.toString()]),
    [['a/b.bin', 'hello tar']],
  );
  const damaged = Buffer.from(archive);
  damaged[3] = damaged[3]! ^ 1;
  assert.throws(() => readTar(damaged), /fails its checksum/);
  assert.throws(() => readTar(archive.subarray(0, 512 + 4)), /cut short/);
});
