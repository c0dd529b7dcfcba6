/**
 * The diagnostics (docs/diagnostics.md) against real parts: the private INN (its DATE, a TLS front whose certificate
 * a throwaway CA issued for 3 days), real folders (one chowned to another user), a /proc root written by the test,
 * the mount's own setup checks with a FUSE device that is not there. Each bad setup is reported with its fix; the
 * healthy setup through GET /api/system/diagnostics reports no warning.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { gunzipSync } from 'node:zlib';
import { readTar } from '../../../appliance/backup/tar.js';
import { mountBlocker, propagationProblem, readMountSetupFacts } from '../../../appliance/fuse/mount-setup.js';
import {
  DiagnosticsService,
  HOST_ROOTS,
  LatencyHistory,
  readFolderFacts,
  runAsFromEnv,
  type DiagnosticsDeps,
} from '../../../appliance/diagnostics/index.js';
import {
  SUPPORT_BUNDLE_FILES,
  type DiagnosticFinding,
  type DiagnosticsReport,
} from '../../../appliance/diagnostics/diagnostics.wire.js';
import { arrViewFindings } from '../../../appliance/diagnostics/index.js';
import { defaultsFor } from '../../../appliance/config/data-dir-defaults.js';
import { LmdbLatencyStore } from '../../../appliance/diagnostics/latency.store.js';
import { openStore } from '../../../appliance/store/index.js';
import { startFakeArr } from '../../support/fake-arr/server.js';
import { innProvider } from '../../support/inn/provider.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { writeCaSignedCert } from '../../support/tls-certs.js';
import { api, startServer, type TestServer } from '../../support/server.js';

let inn: InnServer;
const temp = mkdtempSync(join(tmpdir(), 'spool-diag-'));
const cleanups: Array<() => unknown> = [];

before(async () => {
  inn = await ensureInn();
});
after(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(temp, { recursive: true, force: true });
});

/** The round-trip history on a real LMDB store of its own. */
function latencyStore(): LmdbLatencyStore {
  const store = openStore({ rootPath: mkdtempSync(join(temp, 'latency-')) });
  cleanups.push(() => store.close());
  return new LmdbLatencyStore(store);
}

/** A service on this host's real parts, with `over` replacing what a test injects. */
function service(over: Partial<DiagnosticsDeps> = {}): DiagnosticsService {
  const dataDir = mkdtempSync(join(temp, 'data-'));
  return new DiagnosticsService({
    clock: { now: () => Date.now() },
    dataDir,
    patchDir: join(dataDir, 'patches'),
    runAs: () => runAsFromEnv({}),
    folderFacts: readFolderFacts,
    roots: HOST_ROOTS,
    mount: async () => ({ enabled: false, mountPath: '/mnt/spool', blocker: null, propagation: null, mounted: false }),
    providers: () => [],
    latency: new LatencyHistory(() => [], { schedule: () => () => undefined, now: Date.now }, latencyStore()),
    versions: async () => ({ spool: 'test', node: process.versions.node, rclone: null, platform: 'linux' }),
    rcloneNeeded: () => false,
    ...over,
  });
}

const only = (r: DiagnosticsReport, check: string): DiagnosticFinding[] => r.findings.filter((f) => f.check === check);

test('a missing /dev/fuse in a container is an error with the run options that fix it', async () => {
  const facts = { ...readMountSetupFacts(join(temp, 'no-such-dir', 'fuse')), inContainer: true };
  const report = await service({
    mount: async () => ({
      enabled: true,
      mountPath: '/mnt/spool',
      blocker: mountBlocker(facts),
      propagation: propagationProblem('/mnt/spool', facts),
      mounted: false,
    }),
  }).run();
  const [fuse] = only(report, 'fuse');
  assert.equal(fuse?.level, 'error');
  assert.match(fuse.message, /No .*no-such-dir\/fuse here, so the FUSE mount cannot start/);
  assert.match(fuse.fix ?? '', /--device \/dev\/fuse --cap-add SYS_ADMIN/);
  assert.equal(report.findings[0], fuse, 'errors are listed first');
});

test('a /config owned by another user is reported with the chown that fixes it', async () => {
  const dataDir = mkdtempSync(join(temp, 'foreign-'));
  chownSync(dataDir, 4321, 4321);
  const report = await service({ dataDir, runAs: () => runAsFromEnv({ PUID: '1000', PGID: '1000' }) }).run();
  const [owner] = only(report, 'config_owner');
  assert.equal(owner?.level, 'warning');
  assert.match(owner.message, /belongs to 4321:4321, not to PUID\/PGID 1000:1000/);
  assert.match(owner.fix ?? '', /chown -R 1000:1000/);
  // The same folder given to PUID:PGID is fine.
  chownSync(dataDir, 1000, 1000);
  const fixed = await service({ dataDir, runAs: () => runAsFromEnv({ PUID: '1000', PGID: '1000' }) }).run();
  assert.equal(only(fixed, 'config_owner')[0]?.level, 'info');
});

test("a clock 10 minutes off against INN's DATE is an error naming NTP", async () => {
  const ahead = { now: () => Date.now() + 10 * 60_000 };
  const report = await service({ clock: ahead, providers: () => [innProvider(inn)] }).run();
  const [clock] = only(report, 'clock');
  assert.equal(clock?.level, 'error', JSON.stringify(report.findings));
  const seconds = Number(/(\d+) s ahead of provider inn/.exec(clock.message)?.[1]);
  assert.ok(Math.abs(seconds - 600) <= 5, clock.message);
  assert.match(clock.fix ?? '', /NTP/);
  const inTime = await service({ providers: () => [innProvider(inn)] }).run();
  assert.equal(only(inTime, 'clock')[0]?.level, 'info');
});

test('a provider certificate expiring in 3 days (private CA) is an error with who must renew it', async () => {
  const dir = join(temp, 'short-cert');
  writeCaSignedCert(dir, { caName: 'Spool Diagnostics Test CA', days: 3 });
  const front = await tlsFront(dir, inn);
  const ca = readFileSync(join(dir, 'ca.pem'), 'utf8');
  const provider = innProvider(inn, { id: 'short', host: '127.0.0.1', port: front, tls: true, ca });
  const report = await service({ providers: () => [provider] }).run();
  assert.deepEqual(only(report, 'provider_reach'), [], 'the probe reached INN through the TLS front');
  const [cert] = only(report, 'tls_expiry');
  assert.equal(cert?.level, 'error');
  assert.match(
    cert.message,
    /certificate of provider short .* issued by Spool Diagnostics Test CA\) expires in [23] days/,
  );
  assert.match(cert.fix ?? '', /renewed before it expires/);
});

test('a /proc root with a tight memory limit and a low open-file limit: both reported with their fix', async () => {
  const proc = join(temp, 'proc');
  const cgroup = join(temp, 'cgroup');
  mkdirSync(join(proc, 'self', 'fd'), { recursive: true });
  mkdirSync(join(cgroup, 'spool'), { recursive: true });
  for (let i = 0; i < 3; i++) writeFileSync(join(proc, 'self', 'fd', String(i)), '');
  writeFileSync(
    join(proc, 'self', 'limits'),
    'Limit  Soft Limit  Hard Limit  Units\nMax open files  1024  4096  files\n',
  );
  writeFileSync(join(proc, 'self', 'cgroup'), '0::/spool\n');
  writeFileSync(join(cgroup, 'spool', 'memory.max'), `${1024 ** 3}\n`);
  writeFileSync(join(cgroup, 'spool', 'memory.current'), `${1000 * 1024 ** 2}\n`);
  writeFileSync(join(cgroup, 'spool', 'memory.stat'), `anon 1\ninactive_file ${100 * 1024 ** 2}\n`);
  const report = await service({ roots: { procRoot: proc, cgroupRoot: cgroup } }).run();
  const [memory] = only(report, 'memory');
  assert.equal(memory?.level, 'warning');
  assert.match(memory.message, /900 MiB of the container's 1.0 GiB memory limit \(88%\)/);
  assert.match(memory.fix ?? '', /--memory/);
  const [files] = only(report, 'open_files');
  assert.equal(files?.level, 'warning');
  assert.match(files.message, /3 files open, limit 1024 \(hard 4096\)/);
  assert.match(files.fix ?? '', /--ulimit nofile/);
});

test('a data dir on NFS (statfs magic) is an error about LMDB', async () => {
  const report = await service({
    folderFacts: async (path) => ({
      ...(await readFolderFacts(path)),
      fs: { type: 0x6969, freeBytes: 1e12, totalBytes: 2e12 },
    }),
  }).run();
  const [network] = only(report, 'data_dir_network');
  assert.equal(network?.level, 'error');
  assert.match(network.message, /network filesystem \(NFS\)/);
  assert.match(network.fix ?? '', /local disk/);
});

test("the complete dir not where the arr looks: the arr's own path check is reported with the mounts that fix it", async () => {
  const arr = await startFakeArr({ type: 'radarr' });
  cleanups.push(() => arr.close());
  const config = structuredClone(defaultsFor(temp));
  config.arrs.enabled = true;
  config.arrs.radarr_instances = [
    { name: 'main', type: 'radarr', url: arr.url, api_key: arr.apiKey, enabled: true, root_folder: '' },
  ];
  const seen = await service({ extra: [() => arrViewFindings(config)] }).run();
  assert.equal(only(seen, 'arr_paths')[0]?.level, 'info', 'nothing said: the arr sees the paths');
  arr.health = [
    { source: 'IndexerStatusCheck', type: 'warning', message: 'Indexers unavailable due to failures' },
    {
      source: 'RemotePathMappingCheck',
      type: 'error',
      message: 'Download client Spool places downloads in /import/movies but Radarr cannot see this directory.',
    },
  ];
  const report = await service({ extra: [() => arrViewFindings(config)] }).run();
  const paths = only(report, 'arr_paths');
  assert.equal(paths.length, 1, 'only the arr checks about download paths');
  assert.equal(paths[0]?.level, 'error');
  assert.match(paths[0]!.message, /Radarr 'main' says: Download client Spool places downloads in \/import\/movies/);
  assert.match(paths[0]!.fix ?? '', /same paths in the arr's container|remote path mapping/);
});

test('a provider answering three times slower than its past is a warning', async () => {
  let rtt = 20;
  const clock = { schedule: () => () => undefined, now: Date.now };
  const history = new LatencyHistory(() => [{ id: 'inn', rttMs: rtt }], clock, latencyStore());
  for (let i = 0; i < 6; i++) await history.sample();
  assert.deepEqual(await history.findings(), [], 'as fast as ever');
  rtt = 400;
  const [slow] = await history.findings();
  assert.equal(slow?.level, 'warning');
  assert.match(
    slow.message,
    /Provider inn answers in 400 ms now; over 30 minutes of samples in the last 30 days it answered in 20 ms/,
  );
});

test('the toolkit routes are admin only: anonymous callers get 401', async () => {
  const srv: TestServer = await startServer({ config: { auth: { login_required: true } } });
  cleanups.push(() => srv.stop());
  for (const [method, path] of [
    ['GET', '/api/system/diagnostics'],
    ['GET', '/api/system/speedtest'],
    ['POST', '/api/system/speedtest'],
    ['POST', '/api/system/speedtest/apply'],
    ['GET', '/api/system/support-bundle'],
  ] as const)
    assert.equal((await api(srv.baseUrl, path, { method })).status, 401, `${method} ${path}`);
});

test('a healthy setup through GET /api/system/diagnostics reports no warning', async () => {
  const srv: TestServer = await startServer({
    config: { auth: { login_required: false }, providers: [innProvider(inn)] },
  });
  cleanups.push(() => srv.stop());
  const { status, body } = await api<DiagnosticsReport>(srv.baseUrl, '/api/system/diagnostics');
  assert.equal(status, 200);
  const report = body.data!;
  const problems = report.findings.filter((f) => f.level !== 'info');
  assert.deepEqual(problems, [], 'no warning or error');
  assert.equal(report.counts.warning + report.counts.error, 0);
  for (const check of ['config_owner', 'free_space', 'memory', 'open_files', 'clock', 'node_version', 'fuse'])
    assert.ok(only(report, check).length > 0, `${check} reported`);
});

/** A TLS server with the certificate in `dir`, relaying to INN's plain port (a provider's TLS front). */
async function tlsFront(dir: string, target: InnServer): Promise<number> {
  const server = tls.createServer(
    { key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.pem')) },
    (client) => {
      const upstream = net.connect(target.port, target.host);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return (server.address() as net.AddressInfo).port;
}

test('GET /api/system/support-bundle: one tar.gz with the config, diagnostics, versions, metrics and log, no secret in it', async () => {
  const secret = (name: string) => `bundle-secret-${name}-${Math.random().toString(36).slice(2)}`;
  const secrets = {
    webdav: secret('webdav'),
    provider: secret('provider'),
    rc: secret('rc'),
    sab: secret('sab'),
    radarr: secret('radarr'),
    archive: secret('archive'),
    target: secret('target'),
    media: secret('media'),
  };
  const srv: TestServer = await startServer({
    config: {
      auth: { login_required: false },
      webdav: { password: secrets.webdav },
      providers: [innProvider(inn, { id: 'spare', password: secrets.provider, enabled: false })],
      rclone: { rc_pass: secrets.rc },
      sabnzbd: { fallback_api_key: secrets.sab },
      arrs: { radarr_instances: [{ name: 'R', type: 'radarr', url: 'http://127.0.0.1:9', api_key: secrets.radarr }] },
      import: { archive_passwords: [secrets.archive] },
      notifications: {
        targets: [{ name: 'hook', type: 'webhook', url: 'http://127.0.0.1:9/x', token: secrets.target }],
      },
      media_servers: {
        servers: [
          {
            name: 'jf',
            kind: 'jellyfin',
            url: 'http://127.0.0.1:9',
            token: secrets.media,
            enabled: false,
            refresh_imports: false,
            path_mappings: [],
          },
        ],
      },
    },
  });
  cleanups.push(() => srv.stop());
  // A line in the log that carries a secret, as a careless log call would.
  srv.app().logger.warn('probe', { detail: secrets.provider });
  const res = await fetch(`${srv.baseUrl}/api/system/support-bundle`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/gzip');
  assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="spool-support-.*\.tar\.gz"/);
  const entries = readTar(gunzipSync(Buffer.from(await res.arrayBuffer())));
  assert.deepEqual(entries.map((e) => e.name).sort(), [...SUPPORT_BUNDLE_FILES].sort());
  const text = (name: string) => entries.find((e) => e.name === name)!.data.toString('utf8');
  for (const [key, value] of Object.entries(secrets))
    assert.ok(!entries.some((e) => e.data.includes(value)), `the ${key} secret leaked`);
  assert.match(text('config.yaml'), /password_set: true/);
  assert.ok((JSON.parse(text('diagnostics.json')) as DiagnosticsReport).findings.length > 0);
  assert.equal((JSON.parse(text('versions.json')) as { node: string }).node, process.versions.node);
  assert.match(text('metrics.txt'), /^# HELP /m);
  assert.match(text('log.txt'), /"msg":"probe"/, 'the last log lines are in it');
  assert.match(text('log.txt'), /"msg":"listening"|"scope"/);
});
