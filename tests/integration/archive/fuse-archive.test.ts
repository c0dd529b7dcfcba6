import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { open, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { writeRar4 } from '../../support/archive/rar4-writer.js';
import { writeRar5 } from '../../support/archive/rar5-writer.js';
import type { WrittenVolume } from '../../support/archive/volumes.js';
import { buildNzb } from '../../support/inn/poster.js';
import { innProvider } from '../../support/inn/provider.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startServer, type TestServer } from '../../support/server.js';
import { sha256, upload, waitForItem } from '../import/support.js';
import { POSTER, postVolumes, withPassword } from './support.js';
import { film } from '../../support/media/film.js';

// Members of stored and AES RAR5 sets and of an AES-128 RAR 3 set read through the real FUSE mount (our FUSE 3 addon over /dev/fuse):
// whole files and random seeks, across volume boundaries and AES block edges.
let inn: InnServer;
let srv: TestServer;
let mnt: string;

before(async () => {
  inn = await ensureInn();
  mnt = tempMountPoint('spool-archive-mnt-');
  srv = await startServer({
    config: {
      auth: { login_required: false },
      mount_path: mnt,
      providers: [innProvider(inn)],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
    },
  });
});
after(async () => {
  await srv?.stop();
  await removeMountPoint(mnt);
});

async function importSet(name: string, vols: WrittenVolume[], password?: string): Promise<string> {
  let xml = buildNzb(await postVolumes(inn, vols, { articleSize: 90_000 }), inn.group, POSTER);
  if (password) xml = withPassword(xml, password);
  const up = await upload(srv.baseUrl, `${name}.nzb`, xml, { category: 'movies' });
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  return item.target_path!;
}

async function checkThroughMount(path: string, want: Buffer, edges: number[]): Promise<void> {
  const onDisk = join(mnt, path);
  assert.equal(sha256(await readFile(onDisk)), sha256(want));
  const fh = await open(onDisk, 'r');
  try {
    const spots = [
      ...edges.flatMap((e) => [e - 17, e - 1, e, e + 15]),
      ...Array.from({ length: 25 }, () => randomInt(0, want.length)),
    ];
    for (const spot of spots) {
      const pos = Math.max(0, Math.min(want.length - 1, spot));
      const len = Math.min(want.length - pos, randomInt(1, 300_000));
      const buf = Buffer.alloc(len);
      const { bytesRead } = await fh.read(buf, 0, len, pos);
      assert.equal(bytesRead, len);
      assert.ok(buf.equals(want.subarray(pos, pos + len)), `read ${len} at ${pos} of ${path}`);
    }
  } finally {
    await fh.close();
  }
}

test('stored and AES RAR5 and RAR 3 members read byte-exact through the FUSE mount, seeks across volumes included', async () => {
  const plain = film(900_001);
  const secret = film(600_013);
  const secret3 = film(400_004);
  const rar3Dir = await importSet(
    'Fuse.Rar3',
    writeRar4([{ name: 'Fuse.Rar3.mkv', data: secret3 }], { volumeSize: 150_000, base: 'f3', password: 'pw3' }),
    'pw3',
  );
  const storedDir = await importSet(
    'Fuse.Stored',
    writeRar5([{ name: 'Fuse.Stored.mkv', data: plain }], { volumeSize: 250_000, base: 'fs' }),
  );
  const aesDir = await importSet(
    'Fuse.Aes',
    writeRar5([{ name: 'Fuse.Aes.mkv', data: secret }], {
      volumeSize: 250_000,
      base: 'fa',
      password: 'pw',
      kdfLog2: 10,
    }),
    'pw',
  );
  const started = (await (await fetch(`${srv.baseUrl}/api/rclone/mount/start`, { method: 'POST' })).json()) as {
    success: boolean;
  };
  assert.equal(started.success, true, JSON.stringify(started));
  assert.deepEqual((await readdir(join(mnt, 'complete', 'movies'))).sort(), ['Fuse.Aes', 'Fuse.Rar3', 'Fuse.Stored']);
  const joins = [249_900, 499_800, 749_700];
  await checkThroughMount(`${storedDir}/Fuse.Stored.mkv`, plain, joins);
  await checkThroughMount(`${aesDir}/Fuse.Aes.mkv`, secret, [16, 4096, ...joins.map((j) => j - (j % 16))]);
  await checkThroughMount(`${rar3Dir}/Fuse.Rar3.mkv`, secret3, [16, 4096, 149_904, 299_808]);
});
