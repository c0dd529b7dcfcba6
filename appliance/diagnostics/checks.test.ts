import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryFinding, openFilesFinding } from './container-checks.js';
import { mountFindings } from './mount-check.js';
import { certificateFinding, clockFinding } from './provider-checks.js';
import { parseNntpDate, type ProviderProbe } from './provider-probe.js';
import { kneeOf, rampOf } from './speed-test.js';
import { freeSpaceFinding, type FolderFacts } from './storage-checks.js';
import { versionFindings } from './versions.js';

const GIB = 1024 ** 3;
const DAY = 24 * 3600 * 1000;
const probe = (over: Partial<ProviderProbe>): ProviderProbe => ({
  id: 'p',
  host: 'news:563',
  clockOffsetMs: 0,
  certificate: null,
  error: null,
  ...over,
});

test('NNTP DATE is read as UTC; anything else is no date', () => {
  assert.equal(parseNntpDate('20261128081500'), Date.UTC(2026, 10, 28, 8, 15, 0));
  assert.equal(parseNntpDate('2026-11-28'), null);
});

test('clock: under 30 s is agreement, 30 s a warning, 5 minutes an error', () => {
  assert.equal(clockFinding(probe({ clockOffsetMs: 29_000 }))?.level, 'info');
  assert.equal(clockFinding(probe({ clockOffsetMs: -45_000 }))?.level, 'warning');
  assert.match(clockFinding(probe({ clockOffsetMs: -45_000 }))!.message, /45 s ahead of/);
  assert.equal(clockFinding(probe({ clockOffsetMs: 6 * 60_000 }))?.level, 'error');
  assert.match(clockFinding(probe({ clockOffsetMs: 6 * 60_000 }))!.message, /360 s behind/);
  assert.equal(clockFinding(probe({ error: 'refused' })), null, 'an unreachable provider says nothing of clocks');
});

test('certificate: 21 days is fine, under 21 a warning, under 7 or expired an error', () => {
  const now = Date.UTC(2026, 10, 28);
  const cert = (days: number) => probe({ certificate: { validTo: now + days * DAY, subject: 'news', issuer: 'CA' } });
  assert.equal(certificateFinding(cert(30), now)?.level, 'info');
  assert.equal(certificateFinding(cert(20), now)?.level, 'warning');
  assert.match(certificateFinding(cert(3), now)!.message, /expires in 3 days/);
  assert.equal(certificateFinding(cert(3), now)?.level, 'error');
  assert.match(certificateFinding(cert(-1), now)!.message, /expired on 2026-11-27/);
  assert.equal(certificateFinding(probe({}), now), null, 'plain TCP has no certificate');
});

test('free space: 512 MiB and 2 GiB / 5% are the lines', () => {
  const at = (free: number, total = 1000 * GIB): FolderFacts => ({
    path: '/config',
    owner: { uid: 0, gid: 0 },
    writable: true,
    fs: { type: 0xef53, freeBytes: free, totalBytes: total },
  });
  assert.equal(freeSpaceFinding('the data dir', at(100 * GIB)).level, 'info');
  assert.equal(freeSpaceFinding('the data dir', at(40 * GIB)).level, 'warning', 'under 5%');
  assert.equal(freeSpaceFinding('the data dir', at(GIB, 10 * GIB)).level, 'warning');
  assert.equal(freeSpaceFinding('the data dir', at(100 * 1024 ** 2)).level, 'error');
});

test('memory and open files: no limit is a fact; near the limit a warning, then an error', () => {
  assert.equal(memoryFinding({ limitBytes: null, workingSetBytes: GIB }).level, 'info');
  assert.equal(memoryFinding({ limitBytes: 4 * GIB, workingSetBytes: GIB }).level, 'info');
  assert.equal(memoryFinding({ limitBytes: 4 * GIB, workingSetBytes: 3.3 * GIB }).level, 'warning');
  assert.equal(memoryFinding({ limitBytes: 4 * GIB, workingSetBytes: 3.9 * GIB }).level, 'error');
  assert.equal(memoryFinding({ limitBytes: 256 * 1024 ** 2, workingSetBytes: 1 }).level, 'warning');
  assert.equal(openFilesFinding({ soft: 65536, hard: 65536, open: 40 }).level, 'info');
  assert.equal(openFilesFinding({ soft: 1024, hard: 4096, open: 40 }).level, 'warning');
  assert.equal(openFilesFinding({ soft: 65536, hard: 65536, open: 60000 }).level, 'error');
});

test("the mount's own sentences are split into what was found and its fix", () => {
  const [f] = mountFindings({
    enabled: true,
    mountPath: '/mnt/spool',
    blocker:
      'No /dev/fuse here, so the FUSE mount cannot start (WebDAV keeps working). Start the container with --device /dev/fuse.',
    propagation: null,
    mounted: false,
  });
  assert.equal(f?.message, 'No /dev/fuse here, so the FUSE mount cannot start (WebDAV keeps working).');
  assert.equal(f?.fix, 'Start the container with --device /dev/fuse.');
  const off = mountFindings({ enabled: false, mountPath: '/m', blocker: null, propagation: null, mounted: false });
  assert.equal(off[0]?.level, 'info');
});

test('versions: an old Node is an error; no rclone matters only for the rclone backend', () => {
  const v = { spool: '1', node: '20.18.1', rclone: null, platform: 'linux' };
  assert.equal(versionFindings(v, false)[0]?.level, 'error');
  assert.equal(versionFindings({ ...v, node: '22.1.0' }, false)[0]?.level, 'info');
  assert.equal(versionFindings(v, true)[1]?.level, 'error');
  assert.equal(versionFindings(v, false)[1]?.level, 'info');
});

test('the ramp and the knee: the fewest connections within 90% of the best', () => {
  assert.deepEqual(rampOf(8), [1, 2, 3, 4, 6, 8]);
  assert.deepEqual(rampOf(5), [1, 2, 3, 4, 5]);
  const step = (connections: number, mb_per_s: number) => ({ connections, mb_per_s, articles: 1 });
  assert.equal(kneeOf([step(1, 1.5), step(2, 3), step(3, 4.5), step(4, 5.9), step(6, 6), step(8, 6)]), 4);
  assert.equal(kneeOf([step(1, 10), step(2, 10.2)]), 1);
  assert.equal(kneeOf([]), null);
});
