import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { api, startServer, type TestServer } from '../../support/server.js';
import { upload } from '../import/support.js';

// The data dir on a small tmpfs (real ENOSPC from the kernel), filled up while the server runs: writes answer a
// coded "disk full" (507), the server keeps answering, and once space is back writes work again.
// Mounting needs root (as the INN tests do); CI runs the tests as root.
let mnt: string;
let srv: TestServer;
const filler = () => join(mnt, 'filler');

before(async () => {
  mnt = mkdtempSync(join(tmpdir(), 'spool-diskfull-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', mnt]);
  srv = await startServer({ dataDir: join(mnt, 'data'), config: { auth: { login_required: false } } });
});
after(async () => {
  await srv?.stop();
  execFileSync('umount', ['-l', mnt]);
  rmdirSync(mnt);
});

/** Writes until the kernel says ENOSPC. */
function fillDisk(): void {
  const fd = openSync(filler(), 'w');
  const block = Buffer.alloc(256 * 1024, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

const nzb = (n: number) =>
  `<?xml version="1.0"?><nzb xmlns="http://www.newzbin.com/DTD/2003/nzb">` +
  `<file poster="p" date="1" subject="&quot;f${n}.mkv&quot; yEnc (1/1)"><groups><group>g</group></groups>` +
  `<segments><segment bytes="${1000 + n}" number="1">${'x'.repeat(200)}${n}@t</segment></segments></file>` +
  `<!-- ${'padding '.repeat(20_000)} --></nzb>`;

test('a full disk answers 507 DISK_FULL with "disk full", and the server keeps running', async () => {
  assert.equal((await upload(srv.baseUrl, 'Before.nzb', nzb(0))).status, 200);
  fillDisk();
  try {
    let refused: Awaited<ReturnType<typeof upload>> | undefined;
    // LMDB may still have free pages in its file: keep writing until the disk is the limit.
    for (let i = 1; i <= 200 && !refused; i++) {
      const res = await upload(srv.baseUrl, `Full.${i}.nzb`, nzb(i));
      if (res.status !== 200) refused = res;
    }
    assert.ok(refused, 'uploads kept succeeding on a full disk');
    assert.equal(refused.status, 507, JSON.stringify(refused.body));
    assert.equal(refused.body.error?.code, 'DISK_FULL');
    assert.match(refused.body.error?.message ?? '', /disk full/i);
    const put = await fetch(`${srv.baseUrl}/webdav/notes.txt`, { method: 'PUT', body: 'x'.repeat(300_000) });
    assert.equal(put.status, 507);
    assert.equal((await api(srv.baseUrl, '/api/queue/stats')).status, 200, 'reads still work');
  } finally {
    rmSync(filler(), { force: true });
  }
  assert.equal((await upload(srv.baseUrl, 'After.nzb', nzb(999))).status, 200, 'writes work again with space back');
});
