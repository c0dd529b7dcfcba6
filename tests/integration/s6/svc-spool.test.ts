/**
 * The svc-spool longrun's run script under a real s6-svscan: readiness only after /ping answers 200, the real
 * Spool dropped to an unprivileged user, restarted by s6 after kill -9, and stopped cleanly by `s6-svc -d`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  freePort,
  killQuietly,
  pingStatus,
  PROJECT_ROOT,
  startSvcSpool,
  svstat,
  waitFor,
  type Scan,
} from './s6.support.js';

const NOBODY = 65534;
const scans: Scan[] = [];
after(async () => {
  for (const scan of scans) await scan.stop();
});

/** The uid a process runs as, from /proc (real uid, first field of the Uid: line). */
function uidOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Uid:'));
  return Number(line?.split(/\s+/)[1]);
}

describe('svc-spool under s6-svscan', () => {
  it('is not called ready while /ping answers 503, and is once it answers 200', async () => {
    const port = await freePort();
    const gateDir = mkdtempSync(join(tmpdir(), 'spool-s6-gate-'));
    const scan = await startSvcSpool({
      SPOOL_DATA: gateDir,
      SPOOL_APP_DIR: join(PROJECT_ROOT, 'tests/integration/s6/fixtures'),
      SPOOL_ENTRY: 'ping-gate.mjs',
      SPOOL_USER: 'root',
      SPOOL_PORT: String(port),
      SPOOL_HOST: '127.0.0.1',
    });
    scans.push(scan);
    await waitFor('the daemon to answer 503', async () => ((await pingStatus(port)) === 503 ? true : undefined));

    // s6-notifyoncheck probes every 500 ms: over 3 s it has asked several times and been told 503 each time.
    const watchUntil = Date.now() + 3000;
    while (Date.now() < watchUntil) {
      assert.equal(await pingStatus(port), 503);
      const state = svstat(scan.serviceDir);
      assert.equal(state.up, true, 'the daemon is running');
      assert.equal(state.ready, false, 'ready was signalled while /ping answered 503');
      await new Promise((r) => setTimeout(r, 200));
    }
    writeFileSync(join(gateDir, 'open'), '');
    await waitFor('readiness after /ping answers 200', () => (svstat(scan.serviceDir).ready ? true : undefined));
    assert.equal(await pingStatus(port), 200);
    rmSync(gateDir, { recursive: true, force: true });
  });

  it('runs the real Spool as the service user, restarts it after kill -9 and stops it cleanly with s6-svc -d', async () => {
    const port = await freePort();
    const scanEnv = {
      SPOOL_APP_DIR: PROJECT_ROOT,
      SPOOL_ENTRY: 'appliance/main.ts',
      SPOOL_NODE_FLAGS: '--import tsx',
      SPOOL_USER: 'nobody',
      SPOOL_PORT: String(port),
      SPOOL_HOST: '127.0.0.1',
    };
    const dataDir = mkdtempSync(join(tmpdir(), 'spool-s6-data-'));
    chownSync(dataDir, NOBODY, NOBODY);
    const scan = await startSvcSpool({ ...scanEnv, SPOOL_DATA: dataDir });
    scans.push(scan);

    const first = await waitFor('Spool to be ready', () => {
      const s = svstat(scan.serviceDir);
      return s.up && s.ready ? s : undefined;
    });
    const ping = await fetch(`http://127.0.0.1:${port}/ping`);
    assert.equal(ping.status, 200);
    assert.deepEqual(await ping.json(), { status: 'OK' });
    assert.equal(uidOf(first.pid), NOBODY, 'the daemon dropped root through s6-setuidgid');
    assert.match(readFileSync(`/proc/${first.pid}/cmdline`, 'utf8'), /^node\0--import\0tsx\0appliance\/main\.ts\0$/);
    // Spool wrote its default config into SPOOL_DATA as the service user.
    assert.ok(readFileSync(join(dataDir, 'config.yaml'), 'utf8').length > 0);

    killQuietly(first.pid, 'SIGKILL');
    const second = await waitFor('s6 to restart Spool and see it ready again', () => {
      const s = svstat(scan.serviceDir);
      return s.up && s.ready && s.pid !== first.pid ? s : undefined;
    });
    assert.equal(await pingStatus(port), 200);

    execFileSync('s6-svc', ['-d', scan.serviceDir]);
    execFileSync('s6-svwait', ['-D', '-t', '30000', scan.serviceDir]);
    const stopped = svstat(scan.serviceDir);
    assert.equal(stopped.up, false);
    assert.equal(stopped.exitcode, 0, `Spool should exit 0 on SIGTERM (signal: ${stopped.signal})`);
    assert.equal(await pingStatus(port), 0, 'the port is closed after the stop');
    assert.match(scan.output(), /"msg":"shutting down","signal":"SIGTERM"/);
    assert.notEqual(second.pid, first.pid);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
