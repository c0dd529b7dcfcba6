/**
 * svc-spool/data/start, the step between s6 and node (and the image's entry point without s6): FILE__ secrets,
 * UMASK, the drop to PUID:PGID by number as root, and clear refusals, run for real with a stand-in for Spool.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { PROJECT_ROOT, S6_RC_DIR } from './s6.support.js';

const START = join(S6_RC_DIR, 'svc-spool', 'data', 'start');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spool-start-'));
  chmodSync(dir, 0o755);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Seen {
  env: Record<string, string>;
  umask: number;
  uid: number;
  gid: number;
  groups: number[];
  cwd: string;
}

function start(env: Record<string, string>): { status: number | null; out: string; seen?: Seen } {
  const res = spawnSync(START, [], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      SPOOL_APP_DIR: PROJECT_ROOT,
      SPOOL_ENTRY: 'tests/integration/s6/fixtures/print-env.mjs',
      SPOOL_USER: 'root',
      ...env,
    },
  });
  const seen = res.status === 0 ? (JSON.parse(res.stdout) as Seen) : undefined;
  return { status: res.status, out: `${res.stdout}${res.stderr}`, seen };
}

describe('svc-spool/data/start', () => {
  it('sets each FILE__ variable from its file (trailing newline dropped) and removes the FILE__ one', () => {
    const secret = join(dir, 'db_url');
    writeFileSync(secret, 'postgres://spool:s3cr3t@db/spool\n');
    chmodSync(secret, 0o600); // readable by root only, as Docker secrets may be: read before the drop
    const res = start({ FILE__SPOOL_DATABASE_URL: secret, PUID: '65534', PGID: '65534' });
    assert.equal(res.status, 0, res.out);
    assert.equal(res.seen?.env.SPOOL_DATABASE_URL, 'postgres://spool:s3cr3t@db/spool');
    assert.equal(res.seen?.env.FILE__SPOOL_DATABASE_URL, undefined);
  });

  it('applies UMASK (default 022) and starts in the app dir', () => {
    assert.equal(start({ UMASK: '027' }).seen?.umask, 0o027);
    const plain = start({});
    assert.equal(plain.seen?.umask, 0o022);
    assert.equal(plain.seen?.cwd, PROJECT_ROOT);
  });

  it('as root with PUID/PGID, runs as them by number with only PGID as its group', () => {
    const res = start({ PUID: '4321', PGID: '8765' });
    assert.equal(res.status, 0, res.out);
    assert.equal(res.seen?.uid, 4321);
    assert.equal(res.seen?.gid, 8765);
    assert.deepEqual(res.seen?.groups, [8765]);
  });

  it('refuses an unreadable secret file and a UMASK that is not octal, naming the fix', () => {
    const missing = start({ FILE__SPOOL_DATABASE_URL: join(dir, 'nope') });
    assert.equal(missing.status, 1);
    assert.match(missing.out, /FILE__SPOOL_DATABASE_URL names .*nope, which cannot be read: mount the secret there/);
    const bad = start({ UMASK: 'u=rwx' });
    assert.equal(bad.status, 1);
    assert.match(bad.out, /UMASK must be octal digits \(e\.g\. 022 or 002\), got 'u=rwx'/);
  });
});
