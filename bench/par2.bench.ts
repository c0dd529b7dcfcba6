/**
 * PAR2 repair benchmark (docs/par2.md "Speed"; issue 30): the server's own repair path beside `par2 repair`
 * (par2cmdline) on the same release and the same damage, three rounds each (SPOOL_BENCH_PAR2_ROUNDS), median and
 * spread.
 *
 * The release (bench/lib/par2-server-fixture.ts): one file of SPOOL_BENCH_PAR2_MB MiB (default 1024) of random
 * bytes and its `par2 create -r5` recovery set, posted to the bench INN. The built server (plain node, a child
 * process: its CPU and VmHWM are its own) imports it once per round as a job of its own, then the bench cancels
 * articles of the file from INN until their slices make half the recovery slices. Each server round: a priority
 * health check of one job's file (POST /api/health/check), its verdict (the articles missing), the automatic PAR2
 * repair (the kept .par2 files and the surviving slices read from INN on the repair lane, the solve in its worker
 * thread, the rebuilt bytes committed to the patch store), until the record reads `healthy`, repaired from PAR2.
 * Then the whole file is read back over WebDAV and compared with the original (outside the timing).
 *
 * par2cmdline works on a local copy with the same articles' bytes zeroed: it verifies the whole file, then writes
 * a whole new file and verifies it again; Spool reads the file from the provider but writes only the rebuilt
 * slices. The two do different work for the same outcome: the table says which.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cancelArticles } from '../tests/support/inn/cancel.js';
import { innProvider } from '../tests/support/inn/provider.js';
import { ensureInn } from '../tests/support/inn/server.js';
import { startChildServer, type ChildServer } from '../tests/support/child-server.js';
import { api, upload, waitForItem } from '../tests/integration/import/support.js';
import { damage, damagedCopy, postPar2Release, type Par2Release } from './lib/par2-server-fixture.js';
import { buildServer } from './lib/spool-server.js';
import { cleanupOnSignal } from './lib/cleanup.js';

const WANT_MB = Number(process.env.SPOOL_BENCH_PAR2_MB ?? 1024);
const ROUNDS = Number(process.env.SPOOL_BENCH_PAR2_ROUNDS ?? 3);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface ServerRound {
  /** From the check request to the verdict that articles are missing. */
  verdictMs: number;
  /** From the check request to the record reading healthy, repaired from PAR2. */
  totalMs: number;
  cpuSeconds: number;
}

export async function run(log: (m: string) => void): Promise<string> {
  const free = statfsSync('/var/tmp');
  const freeMb = (free.bavail * free.bsize) / 2 ** 20;
  // the original, par2cmdline's copy and INN's yEnc articles: about 3.2 times the set, plus room to spare
  const mb = Math.min(WANT_MB, Math.floor((freeMb - 4096) / 3.2 / 256) * 256);
  if (mb < 256) throw new Error(`not enough disk in /var/tmp for the PAR2 bench (${freeMb.toFixed(0)} MiB free)`);
  const builtMain = buildServer();
  const inn = await ensureInn();
  const release = await postPar2Release(inn, mb, log);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'spool-bench-par2-'));
  const srv = await startChildServer({ builtMain, dataDir, config: serverConfig(inn), readyTimeoutMs: 120_000 });
  const releaseSrv = cleanupOnSignal(() => srv.stop());
  try {
    const paths: string[] = [];
    for (let i = 1; i <= ROUNDS; i++) paths.push(await importJob(srv, release, `Par2.Bench.Round${i}`));
    const { cancelled, slices } = damage(release);
    cancelArticles(inn, cancelled);
    log(`${cancelled.length} articles cancelled, ${slices} slices damaged, ${release.recoverySlices} recovery slices`);
    const original = await sha256(path.join(release.dir, release.name));
    const ours: ServerRound[] = [];
    for (const p of paths) {
      ours.push(await serverRound(srv, p));
      log(`server: ${secs(ours.at(-1)!.totalMs)}`);
      if ((await davSha256(srv, p)) !== original) throw new Error(`${p} reads back wrong after the repair`);
    }
    const theirs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      theirs.push(par2cmdlineRound(release, cancelled, original));
      log(`par2 repair: ${secs(theirs.at(-1)!)}`);
    }
    return report(release, mb, cancelled.length, slices, ours, theirs, srv.peakRssMb());
  } finally {
    releaseSrv();
    await srv.stop(60_000);
    srv.removeDataDir();
    rmSync(release.dir, { recursive: true, force: true });
  }
}

/** Health on (no scheduled checks: the bench asks), repairs automatic and at once, every article checked. */
function serverConfig(inn: Awaited<ReturnType<typeof ensureInn>>): Record<string, unknown> {
  return {
    auth: { login_required: false },
    providers: [innProvider(inn)],
    import: { queue_processing_interval_seconds: 1 },
    health: {
      enabled: true,
      auto_repair_enabled: true,
      check_interval_seconds: 86_400,
      max_retries: 1,
      check_all_segments: true,
      repair_delay_minutes: 0,
    },
  };
}

async function importJob(srv: ChildServer, r: Par2Release, job: string): Promise<string> {
  const up = await upload(srv.baseUrl, `${job}.nzb`, r.nzbXml, { category: 'movies' });
  if (up.status !== 200) throw new Error(`upload ${job}: ${up.status} ${JSON.stringify(up.body)}`);
  const item = await waitForItem(srv.baseUrl, up.body.data!.id, undefined, { hungAfterMs: 1_800_000 });
  if (item.status !== 'completed') throw new Error(`import of ${job}: ${item.status} ${item.error_message}`);
  return `${item.target_path}/${r.name}`;
}

interface HealthRecord {
  status: string;
  last_checked: string | null;
  last_error: string | null;
  repaired_from: 'par2' | null;
  missing_ranges: unknown[];
}

/** One server round: the check asked for, the verdict, the repair, until healthy from PAR2 (bounded: 1 hour). */
async function serverRound(srv: ChildServer, file: string): Promise<ServerRound> {
  const get = async () => (await api<HealthRecord>(srv.baseUrl, `/api/health/${encodeURIComponent(file)}`)).body.data!;
  const cpu0 = srv.cpuSeconds();
  const t0 = performance.now();
  const res = await api(srv.baseUrl, '/api/health/check', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ file_path: file, source_nzb_path: '', priority: true }),
  });
  if (res.status !== 200) throw new Error(`check ${file}: ${res.status} ${JSON.stringify(res.body)}`);
  let verdictMs = NaN;
  const until = Date.now() + 3_600_000;
  for (;;) {
    const r = await get();
    if (Number.isNaN(verdictMs) && r.missing_ranges.length > 0) verdictMs = performance.now() - t0;
    if (r.status === 'healthy' && r.repaired_from === 'par2') {
      const totalMs = performance.now() - t0;
      return { verdictMs: Number.isNaN(verdictMs) ? totalMs : verdictMs, totalMs, cpuSeconds: srv.cpuSeconds() - cpu0 };
    }
    // partial / corrupted are the verdict while the PAR2 repair runs; repair_triggered is the arr fallback
    if (r.status === 'repair_triggered') throw new Error(`${file}: the PAR2 repair gave up (${r.last_error})`);
    if (Date.now() > until) throw new Error(`${file}: not repaired after an hour: ${JSON.stringify(r)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** par2cmdline on a fresh damaged copy; checked against the original. Wall milliseconds. */
function par2cmdlineRound(r: Par2Release, cancelled: string[], original: string): number {
  const copy = `${r.dir}-theirs`;
  try {
    damagedCopy(r, cancelled, copy);
    const t0 = performance.now();
    const out = spawnSync('par2', ['repair', '-q', '-q', 'release.par2'], { cwd: copy, encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (out.status !== 0) throw new Error(`par2 repair failed: ${out.stdout}${out.stderr}`);
    const got = spawnSync('sha256sum', [path.join(copy, r.name)], { encoding: 'utf8' }).stdout.split(' ')[0];
    if (got !== original) throw new Error('par2 repair rebuilt the file wrong');
    return ms;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

async function sha256(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

async function davSha256(srv: ChildServer, file: string): Promise<string> {
  const res = await fetch(`${srv.baseUrl}/webdav${file.split('/').map(encodeURIComponent).join('/')}`);
  if (res.status !== 200 || !res.body) throw new Error(`GET ${file}: ${res.status}`);
  const h = createHash('sha256');
  for await (const chunk of res.body) h.update(chunk);
  return h.digest('hex');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[]) => `${secs(Math.min(...xs))}-${secs(Math.max(...xs))}`;

function report(
  r: Par2Release,
  mb: number,
  cancelled: number,
  slices: number,
  ours: ServerRound[],
  theirs: number[],
  peakMb: number,
): string {
  const total = ours.map((o) => o.totalMs);
  const ratio = median(total) / median(theirs);
  return [
    `${mb} MiB in one file; par2 create -r5 (${secs(r.createMs)}): slices of ${r.sliceSize} bytes, ` +
      `${r.recoverySlices} recovery slices. ${cancelled} articles cancelled from INN, damaging ${slices} slices ` +
      `(zeroed in par2cmdline's copy). Every repair checked against the original (the server's read back over WebDAV).`,
    '',
    '| Repair | Rounds (s) | Median | Spread |',
    '| --- | --- | --- | --- |',
    `| Spool, the running server: check asked -> verdict (missing) -> PAR2 repair -> \`healthy\` | ` +
      `${total.map((x) => (x / 1000).toFixed(1)).join(', ')} | ${secs(median(total))} | ${spread(total)} |`,
    `| of which check to verdict | ${ours.map((o) => (o.verdictMs / 1000).toFixed(1)).join(', ')} | ` +
      `${secs(median(ours.map((o) => o.verdictMs)))} | ${spread(ours.map((o) => o.verdictMs))} |`,
    `| par2 repair (par2cmdline, local files: verifies, rewrites the whole file, verifies again) | ` +
      `${theirs.map((x) => (x / 1000).toFixed(1)).join(', ')} | ${secs(median(theirs))} | ${spread(theirs)} |`,
    '',
    `Spool / par2cmdline, medians: ${ratio.toFixed(2)} (target at most 1: ${ratio <= 1 ? 'met' : 'NOT met'}). ` +
      `Server CPU per round: ${ours.map((o) => o.cpuSeconds.toFixed(1)).join(', ')} s; server peak RSS (VmHWM, ` +
      `whole run incl. imports) ${peakMb.toFixed(0)} MiB.`,
  ].join('\n');
}
