/**
 * The image as operators run it (docs/deployment.md), built from the project's Dockerfile by scripts/image.mjs
 * and run with podman: real s6 supervision (s6-svscan as PID 1, readiness through the notification fd), the FUSE
 * mount propagated to the host through an rshared bind and read there and by a second container, a kill -9 of
 * Node healed by s6 with the mount back, `stop` unmounting and exiting 0, PUID/PGID, UMASK, TZ, FILE__ secrets,
 * a read-only root, the plain non-root mode without s6, and the bad setups each named with its fix.
 * Run: `npm test -- container` (needs root, podman, runc, mmdebstrap: scripts/system-deps.mjs installs them).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { ensureInn, type InnServer } from '../support/inn/server.js';
import { innProvider } from '../support/inn/provider.js';
import { ffprobeDuration, makeMedia } from '../support/media/ffmpeg.js';
import { sha256 } from '../integration/webdav/support.js';
import { davGet, davList, upload, waitForItem } from '../integration/import/support.js';
import { postgresBin, startPostgres, type PostgresServer } from '../support/postgres/server.js';
import type { DiagnosticFinding } from '../../appliance/diagnostics/diagnostics.wire.js';
import {
  configDir,
  exitCode,
  IMAGE,
  isRunning,
  mountTypeAt,
  pingStatus,
  podman,
  podmanResult,
  PROBE_IMAGE,
  removeAll,
  removeHostDir,
  runImage,
  sharedHostDir,
  svstat,
  ulimitArgs,
  waitFor,
  type Container,
} from './support.js';
// @ts-expect-error plain ESM script without types
import { imageSizeBytes } from '../../scripts/image.mjs';

const run = promisify(execFile);
const PUID = 1234;
const PGID = 2345;
const FUSE_FLAGS = ['--device', '/dev/fuse', '--cap-add', 'SYS_ADMIN'];

let inn: InnServer;
const hostDirs: string[] = [];
after(async () => {
  await removeAll();
  for (const d of hostDirs.splice(0)) removeHostDir(d);
});
before(async () => {
  inn = await ensureInn();
});

/** A config.yaml for a container: the host's INN as provider (host network), the mount on at start. */
function spoolConfig(mount: boolean): Record<string, unknown> {
  return {
    auth: { login_required: false },
    mount_path: '/mnt/spool',
    rclone: { mount_enabled: mount },
    providers: [innProvider(inn, { max_connections: 4 })],
    import: { queue_processing_interval_seconds: 1 },
  };
}

async function ready(c: Container): Promise<void> {
  await waitFor(`${c.name} to answer /ping 200`, async () =>
    (await pingStatus(c.baseUrl)) === 200 ? true : undefined,
  );
}

/** Posts `media` to INN, uploads its NZB to the container and waits for the import; its WebDAV path. */
async function importOne(c: Container, name: string, media: Buffer): Promise<string> {
  const nzb = (await inn.postFile(name, media, { articleSize: 250_000 })).nzbXml;
  const queued = await upload(c.baseUrl, `${name}.nzb`, nzb, { category: 'movies' });
  assert.equal(queued.status, 200, JSON.stringify(queued.body));
  const item = await waitForItem(c.baseUrl, queued.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  for (const job of await davList(c.baseUrl, '/complete/movies'))
    if ((await davList(c.baseUrl, `/complete/movies/${job}`)).includes(name)) return `/complete/movies/${job}/${name}`;
  throw new Error(`${name} is in no job folder of /complete/movies`);
}

/** The files under /complete/movies over WebDAV, as job/name. */
async function moviesOverDav(c: Container): Promise<string[]> {
  const out: string[] = [];
  for (const job of await davList(c.baseUrl, '/complete/movies'))
    for (const name of await davList(c.baseUrl, `/complete/movies/${job}`)) out.push(`${job}/${name}`);
  return out.sort();
}

async function mountStatus(c: Container): Promise<{ mounted: boolean; mount_point: string; error: string }> {
  const res = await fetch(`${c.baseUrl}/api/rclone/mount/status`);
  return ((await res.json()) as { data: { mounted: boolean; mount_point: string; error: string } }).data;
}

/** The first file under `dir` (depth-first), as a path relative to it. */
function firstFile(dir: string, rel = ''): string | undefined {
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const p = join(rel, name);
    if (statSync(join(dir, p)).isDirectory()) {
      const found = firstFile(dir, p);
      if (found) return found;
    } else return p;
  }
  return undefined;
}

/** sha256 of a file read by another process on the host (another pid namespace than the container's). */
async function hostSum(path: string): Promise<string> {
  const { stdout } = await run('sha256sum', [path], { timeout: 120_000 });
  return stdout.split(' ')[0] as string;
}

it('is at most 300 MB', () => {
  const mb = imageSizeBytes(IMAGE) / 1e6;
  console.log(`# ${IMAGE}: ${mb.toFixed(1)} MB`);
  assert.ok(mb <= 300, `${IMAGE} is ${mb.toFixed(1)} MB`);
});

it("holds no npm, compiler, headers, console dependencies, source maps or other platforms' uWebSockets.js", async () => {
  const found = await podman([
    'run',
    '--rm',
    '--network',
    'none',
    '--health-interval',
    'disable',
    ...(ulimitArgs() as string[]),
    '--entrypoint',
    'sh',
    IMAGE,
    '-c',
    'ls -d /usr/local/lib/node_modules/npm /usr/local/bin/npm /usr/local/include/node /usr/bin/gcc /usr/bin/g++ ' +
      '/usr/bin/make /usr/include/fuse3 /app/node_modules/react /app/node_modules/react-dom ' +
      '/app/node_modules/react-router /app/node_modules/@tanstack /app/node_modules/uplot 2>/dev/null; ' +
      'find /app -name "*.map" | head -3; ls /app/node_modules/uws-pack/dist/bin',
  ]);
  // Node 20's ABI is 115; the image is built for this host's architecture.
  assert.deepEqual(found.trim().split('\n'), [`uws_linux_${process.arch}_115.node`]);
});

describe('the image with FUSE, an rshared mount path, PUID/PGID, UMASK, TZ and a FILE__ secret', () => {
  let c: Container;
  let mnt: string;
  let cfg: string;
  let media: Buffer;
  let relPath = '';

  before(async () => {
    media = makeMedia('mkv', 20, { size: '320x240', fps: 25 });
    mnt = sharedHostDir('spool-ct-mnt-');
    hostDirs.push(mnt);
    cfg = configDir(spoolConfig(true));
    const secrets = configDir();
    writeFileSync(join(secrets, 'node_id'), 'spool-from-a-secret\n');
    c = await runImage('main', {
      env: {
        PUID: String(PUID),
        PGID: String(PGID),
        UMASK: '027',
        TZ: 'Europe/Berlin',
        FILE__SPOOL_NODE_ID: '/run/secrets/node_id',
      },
      options: [
        ...FUSE_FLAGS,
        '-v',
        `${cfg}:/config`,
        '-v',
        `${mnt}:/mnt/spool:rshared`,
        '-v',
        `${secrets}/node_id:/run/secrets/node_id:ro`,
      ],
    });
  });

  it('is called ready by s6 through the notification fd once /ping answers 200', async () => {
    const state = await waitFor('svc-spool ready', async () => {
      const s = await svstat(c);
      return s?.ready ? s : undefined;
    });
    assert.equal(state.up, true);
    assert.equal(await pingStatus(c.baseUrl), 200);
    assert.equal((await c.exec(['cat', '/proc/1/comm'])).trim(), 's6-svscan', 's6-svscan is PID 1');
    const health = await podmanResult(['healthcheck', 'run', c.name]);
    assert.equal(health.code, 0, `HEALTHCHECK: ${health.out}`);
  });

  it('runs Spool as PUID:PGID with UMASK, TZ and the secret file as SPOOL_NODE_ID', async () => {
    const { pid } = (await svstat(c))!;
    const status = await c.exec(['cat', `/proc/${pid}/status`]);
    assert.match(status, new RegExp(`^Uid:\\s+${PUID}\\s`, 'm'));
    assert.match(status, new RegExp(`^Gid:\\s+${PGID}\\s`, 'm'));
    for (const entry of ['config.yaml', 'metadata', 'nzb']) {
      const st = statSync(join(cfg, entry));
      assert.deepEqual([st.uid, st.gid], [PUID, PGID], `${entry} in /config belongs to PUID:PGID`);
    }
    assert.equal(statSync(join(cfg, 'nzb')).mode & 0o777, 0o750, 'a folder Spool made, under UMASK 027');
    const environ = (await c.exec(['cat', `/proc/${pid}/environ`])).split('\0');
    assert.ok(environ.includes('SPOOL_NODE_ID=spool-from-a-secret'), 'FILE__SPOOL_NODE_ID was read');
    assert.ok(!environ.some((e) => e.startsWith('FILE__')), 'the FILE__ variable itself is not passed on');
    assert.match(await c.logs(), /"node":"spool-from-a-secret"/);
    const tz = await c.exec(['node', '-e', 'console.log(Intl.DateTimeFormat().resolvedOptions().timeZone)']);
    assert.equal(tz.trim(), 'Europe/Berlin');
    assert.ok(environ.includes('TZ=Europe/Berlin'));
  });

  it('mounts at start and the host reads an imported file through the propagated mount byte-exact', async () => {
    const status = await waitFor('the mount', async () => {
      const s = await mountStatus(c);
      return s.mounted ? s : undefined;
    });
    assert.deepEqual(status, { mounted: true, mount_point: '/mnt/spool', error: '' });
    assert.equal(mountTypeAt(mnt), 'fuse.spool', 'the host sees the FUSE mount at its own folder');
    const nzb = (await inn.postFile('container.mount.2024.mkv', media, { articleSize: 250_000 })).nzbXml;
    const queued = await upload(c.baseUrl, 'Container.Mount.2024.nzb', nzb, { category: 'movies' });
    assert.equal(queued.status, 200, JSON.stringify(queued.body));
    const item = await waitForItem(c.baseUrl, queued.body.data!.id);
    assert.equal(item.status, 'completed', item.error_message ?? '');
    relPath = await waitFor('the file on the host', () => firstFile(join(mnt, 'complete', 'movies')));
    assert.equal(await hostSum(join(mnt, 'complete', 'movies', relPath)), sha256(media));
  });

  it('a second container of the image (plus ffmpeg) sees the mount through an rslave bind and ffprobe reads it', async () => {
    const out = await podman([
      'run',
      '--rm',
      '--network',
      'none',
      '--health-interval',
      'disable',
      ...(ulimitArgs() as string[]),
      '-v',
      `${mnt}:/media:rslave`,
      '--entrypoint',
      'ffprobe',
      PROBE_IMAGE,
      ...['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0'],
      join('/media/complete/movies', relPath),
    ]);
    const seconds = Number(out.trim());
    assert.ok(seconds > 19, `ffprobe read a duration of ${out.trim()}`);
    assert.equal(seconds, ffprobeDuration(media, 'mkv'), 'the same reading as ffprobe of the original bytes');
  });

  it('brings Node back after kill -9, with the mount restored on the host', async () => {
    assert.doesNotMatch(await c.logs(), /detaching a stale mount/, 'the bind at the mount path is no stale mount');
    const before = (await svstat(c))!;
    const killedAt = Date.now();
    await c.exec(['sh', '-c', `kill -9 ${before.pid}`]);
    const after = await waitFor('a new ready svc-spool', async () => {
      const s = await svstat(c);
      return s?.ready && s.pid !== before.pid ? s : undefined;
    });
    const readyMs = Date.now() - killedAt;
    const file = join(mnt, 'complete', 'movies', relPath);
    await waitFor('the mount back on the host', async () => {
      if (mountTypeAt(mnt) !== 'fuse.spool') return undefined;
      return (await hostSum(file).catch(() => '')) === sha256(media) ? true : undefined;
    });
    const restoredMs = Date.now() - killedAt;
    console.log(`# kill -9: ready again after ${readyMs} ms, the file read on the host after ${restoredMs} ms`);
    assert.notEqual(after.pid, before.pid);
    assert.match(await c.logs(), /detaching a stale mount/);
  });

  it('stops on SIGTERM (podman stop): unmounts, exits 0', async () => {
    const t0 = Date.now();
    await podman(['stop', '-t', '30', c.name]);
    const stopMs = Date.now() - t0;
    console.log(`# stop: the container exited after ${stopMs} ms`);
    assert.equal(await isRunning(c), false);
    assert.equal(await exitCode(c), 0);
    assert.notEqual(mountTypeAt(mnt), 'fuse.spool', 'no FUSE mount is left on the host');
    const logs = await c.logs();
    assert.match(logs, /"msg":"unmounted"/);
    assert.match(logs, /"msg":"stopped"/);
  });
});

describe('bad setups are named with their fix, and WebDAV keeps serving', () => {
  /** The mount status error once the start at boot has failed, and the log. */
  async function failedMount(c: Container): Promise<string> {
    await ready(c);
    const status = await waitFor('the mount start to fail', async () => {
      const s = await mountStatus(c);
      return s.error ? s : undefined;
    });
    assert.equal(status.mounted, false);
    const webdav = await fetch(`${c.baseUrl}/webdav/`, { method: 'PROPFIND', headers: { Depth: '1' } });
    assert.equal(webdav.status, 207, 'WebDAV serves without the mount');
    assert.match(await c.logs(), /mount at start failed/);
    return status.error;
  }

  it('no /dev/fuse: diagnostics name it with the fix, and WebDAV serves an imported file byte-exact', async () => {
    const c = await runImage('nodev', { options: ['-v', `${configDir(spoolConfig(true))}:/config`] });
    const error = await failedMount(c);
    assert.match(error, /No \/dev\/fuse here, so the FUSE mount cannot start \(WebDAV keeps working\)/);
    assert.match(error, /--device \/dev\/fuse --cap-add SYS_ADMIN/);
    assert.ok((await c.logs()).includes(error.replace(/"/g, '\\"')), 'the same words in the log');
    const report = await fetch(`${c.baseUrl}/api/system/diagnostics`);
    assert.equal(report.status, 200);
    const { findings } = ((await report.json()) as { data: { findings: DiagnosticFinding[] } }).data;
    const fuse = findings.filter((f) => f.check === 'fuse');
    assert.equal(fuse.length, 1, JSON.stringify(fuse));
    assert.equal(fuse[0]!.level, 'error');
    assert.match(fuse[0]!.message, /^No \/dev\/fuse here, so the FUSE mount cannot start \(WebDAV keeps working\)\.$/);
    assert.match(fuse[0]!.fix ?? '', /--device \/dev\/fuse --cap-add SYS_ADMIN/);
    assert.ok(error.includes(fuse[0]!.fix!), 'the fix the log and the mount status give');
    assert.equal(findings[0]!.level, 'error', 'errors are listed first');
    const media = makeMedia('mkv', 10, { size: '320x240', fps: 25 });
    const file = await importOne(c, 'container.nodev.2024.mkv', media);
    const got = await davGet(c.baseUrl, file);
    assert.equal(got.status, 200);
    assert.equal(sha256(got.body), sha256(media), `${file} over WebDAV`);
  });

  it('/dev/fuse without SYS_ADMIN', async () => {
    const c = await runImage('nocap', {
      options: ['--device', '/dev/fuse', '-v', `${configDir(spoolConfig(true))}:/config`],
    });
    const error = await failedMount(c);
    assert.match(error, /lacks the SYS_ADMIN capability/);
    assert.match(error, /--cap-add SYS_ADMIN/);
  });

  it('a mount path that is not shared (and a read-only root with a non-default PUID)', async () => {
    const plain = configDir();
    hostDirs.push(plain);
    const c = await runImage('private', {
      env: { PUID: String(PUID), PGID: String(PGID) },
      options: [
        ...FUSE_FLAGS,
        '--read-only',
        '--tmpfs',
        '/run',
        '--tmpfs',
        '/tmp',
        '-v',
        `${configDir(spoolConfig(true))}:/config`,
        '-v',
        `${plain}:/mnt/spool`,
      ],
    });
    await ready(c);
    const status = await waitFor('the mount', async () => {
      const s = await mountStatus(c);
      return s.mounted ? s : undefined;
    });
    assert.match(status.error, /The mount path \/mnt\/spool is not on a shared mount/);
    assert.match(status.error, /:rshared/);
    assert.match(await c.logs(), /is not on a shared mount/);
    assert.match(await c.logs(), /passwd is read-only, so abc keeps its ids there; Spool runs as 1234:2345 by number/);
    const { pid } = (await svstat(c))!;
    assert.match(await c.exec(['cat', `/proc/${pid}/status`]), new RegExp(`^Uid:\\s+${PUID}\\s`, 'm'));
    const write = await podmanResult(['exec', c.name, 'touch', '/etc/x']);
    assert.notEqual(write.code, 0, 'the root file system is read-only');
  });

  it('PUID:PGID that cannot write /config: the container stops with the fix', async () => {
    const cfg = configDir(spoolConfig(false));
    mkdirSync(join(cfg, 'metadata'));
    const c = await runImage('rocfg', {
      env: { PUID: String(PUID), PGID: String(PGID) },
      options: ['-v', `${cfg}:/config:ro`],
    });
    await waitFor('the container to stop', async () => ((await isRunning(c)) ? undefined : true));
    assert.notEqual(await exitCode(c), 0);
    assert.match(
      await c.logs(),
      /PUID:PGID 1234:2345 cannot write \/config \(owner 0:0, mode 755\), so Spool cannot keep its state there\. Make the host directory behind it writable by them \(chown -R 1234:2345 <host dir>\), or set PUID and PGID to its owner\./,
    );
  });
});

describe("a PostgreSQL store: the image's own pg_dump and pg_restore", () => {
  let pg: PostgresServer | undefined;
  let c: Container;
  let media: Buffer;
  let file = '';
  let backupName = '';
  after(async () => pg?.stop());

  it('takes a backup through the API whose db/postgres.dump pg_restore reads, the imported film in it', async () => {
    pg = await startPostgres();
    const cfg = configDir(spoolConfig(false));
    c = await runImage('pg', {
      env: { SPOOL_DATABASE_URL: await pg.createDatabase() },
      options: ['-v', `${cfg}:/config`],
    });
    await ready(c);
    const versions = await c.exec(['sh', '-c', 'command -v pg_dump; command -v pg_restore; pg_dump --version']);
    assert.match(versions, /^\/usr\/local\/bin\/pg_dump\n\/usr\/local\/bin\/pg_restore\npg_dump \(PostgreSQL\) 15\./);
    media = makeMedia('mkv', 10, { size: '320x240', fps: 25 });
    file = await importOne(c, 'container.pg.2024.mkv', media);
    assert.equal(sha256((await davGet(c.baseUrl, file)).body), sha256(media), `${file} over WebDAV`);

    const made = await fetch(`${c.baseUrl}/api/system/backups`, { method: 'POST' });
    const body = (await made.json()) as { data?: { name: string }; error?: unknown };
    assert.equal(made.status, 200, JSON.stringify(body));
    backupName = body.data!.name;
    const archive = join(cfg, 'backups', backupName);
    const { stdout: entries } = await run('tar', ['-tf', archive]);
    // the dump, and the backend-neutral copy an LMDB install restores from (docs/backups.md)
    assert.deepEqual(entries.trim().split('\n'), ['db/data.mdb', 'db/postgres.dump', 'config.yaml', 'manifest.json']);
    const manifest = JSON.parse((await run('tar', ['-xOf', archive, 'manifest.json'])).stdout) as { store: string };
    assert.equal(manifest.store, 'postgres');

    // The dump read by the image's pg_restore, then by the host's (the one the PostgreSQL under test came with).
    const inImage = await c.exec(['sh', '-c', `tar -xOf /config/backups/${body.data!.name} db/postgres.dump > /tmp/d`]);
    assert.equal(inImage, '');
    const listed = await c.exec(['pg_restore', '--list', '/tmp/d']);
    assert.match(listed, /^\d+; \d+ \d+ TABLE DATA public queue_items /m);
    const dump = join(cfg, 'postgres.dump');
    writeFileSync(dump, (await run('tar', ['-xOf', archive, 'db/postgres.dump'], { encoding: 'buffer' })).stdout);
    const hostList = await run(join(postgresBin(), 'pg_restore'), ['--list', dump]);
    assert.equal(hostList.stdout, listed, 'the same table of contents');
    const rows = await run(join(postgresBin(), 'pg_restore'), ['--data-only', '--table=queue_items', '--file=-', dump]);
    assert.match(rows.stdout, /container\.pg\.2024\.mkv/, 'the imported NZB is in the dumped queue');
  });

  it("restores that backup through the API with the image's pg_restore: a film imported after it is gone", async () => {
    assert.ok(backupName, 'the backup of the test before');
    const later = await importOne(c, 'container.pg.later.2024.mkv', makeMedia('mkv', 4, { size: '320x240' }));
    const before = await moviesOverDav(c);
    assert.equal(before.length, 2, JSON.stringify(before));
    const restore = await fetch(`${c.baseUrl}/api/system/backups/${backupName}/restore`, { method: 'POST' });
    const report = (await restore.json()) as { data?: { safety_backup: string | null }; error?: unknown };
    assert.equal(restore.status, 200, JSON.stringify(report));
    assert.match(
      report.data!.safety_backup ?? '',
      /^\/config\/backups\/pre-restore-.*\.tar$/,
      "a safety backup (the image's pg_dump again)",
    );
    const list = await waitFor('the app back on the restored database', async () => {
      const res = await fetch(`${c.baseUrl}/api/system/backups`).catch(() => undefined);
      if (res?.status !== 200) return undefined;
      const data = ((await res.json()) as { data: { last_restore: { archive: string } | null } }).data;
      return data.last_restore?.archive === backupName ? data : undefined;
    });
    assert.equal(list.last_restore!.archive, backupName);
    const after = await waitFor('the tree rebuilt from the restored database', async () => {
      const now = await moviesOverDav(c).catch(() => undefined);
      return now && now.length === 1 ? now : undefined;
    });
    assert.deepEqual(after, [file.slice('/complete/movies/'.length)], `${later} is gone, the film before stays`);
    assert.equal(sha256((await davGet(c.baseUrl, file)).body), sha256(media), `${file} over WebDAV after the restore`);
  });
});

describe('without s6, as a plain non-root user on a read-only root', () => {
  it('serves, runs as that user, writes /config as it, and says why its mount cannot start', async () => {
    const cfg = configDir(spoolConfig(true), [4321, 4321]);
    const c = await runImage('plain', {
      options: [
        ...FUSE_FLAGS,
        '--user',
        '4321:4321',
        '--read-only',
        '--tmpfs',
        '/tmp',
        '--entrypoint',
        '/usr/local/bin/spool-start',
        '-v',
        `${cfg}:/config`,
      ],
    });
    await ready(c);
    const status = await waitFor('the mount start to fail', async () => {
      const s = await mountStatus(c);
      return s.error ? s : undefined;
    });
    // Nobody gives 4321 the device here (the s6 init step would): a host /dev/fuse of 0600 stops it first.
    const hostDeviceOpen = (statSync('/dev/fuse').mode & 0o006) === 0o006;
    assert.match(
      status.error,
      hostDeviceOpen ? /uid 4321 has no user name here/ : /\/dev\/fuse is not readable and writable by uid 4321/,
    );
    const status1 = await c.exec(['cat', '/proc/1/status']);
    assert.match(status1, /^Name:\s+node$/m, 'node is PID 1: no supervisor');
    assert.match(status1, /^Uid:\s+4321\s/m);
    const st = statSync(join(cfg, 'metadata'));
    assert.deepEqual([st.uid, st.gid], [4321, 4321]);
    assert.ok(readFileSync(join(cfg, 'config.yaml'), 'utf8').includes('mount_path'));
    await podman(['stop', '-t', '30', c.name]);
    assert.equal(await exitCode(c), 0);
  });
});
