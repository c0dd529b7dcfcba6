/**
 * Archive benchmark (issue 12), against the local INN fixture and the real server (in process):
 * - import time of a 40-volume RAR5 store set (upload -> completed, default import settings): only the volumes'
 *   headers are read, in parallel, so the time should be that of a plain import of 40 small files;
 * - sequential WebDAV GET throughput (curl) of the same bytes posted four ways: plain, inside the 40 stored RAR5
 *   volumes, inside 40 AES-256 RAR5 volumes and inside 40 AES-128 RAR 3 volumes. SPOOL_BENCH_ARCHIVE_ROUNDS rounds
 *   (default 3) alternate the four, medians reported, so INN's page cache and the machine's load hit each alike.
 * SPOOL_BENCH_ARCHIVE_MB (default 128) sets the payload.
 */
import { randomBytes } from 'node:crypto';
import { writeRar4 } from '../tests/support/archive/rar4-writer.js';
import { writeRar5 } from '../tests/support/archive/rar5-writer.js';
import { materialize } from '../tests/support/archive/volumes.js';
import { buildNzb, type PostedFile } from '../tests/support/inn/poster.js';
import { ensureInn, type InnServer } from '../tests/support/inn/server.js';
import { innProvider, upload, waitForItem, type TestServer } from '../tests/integration/import/support.js';
import { startServer } from '../tests/support/server.js';
import { timedGet, quantile } from './lib/http-client.js';

const MB = Number(process.env.SPOOL_BENCH_ARCHIVE_MB ?? 128);
const ROUNDS = Number(process.env.SPOOL_BENCH_ARCHIVE_ROUNDS ?? 3);
const VOLUMES = 40;
const POSTER = 'Spool Bench <bench@spool.test>';
const ms = (x: number) => `${x.toFixed(0)} ms`;

async function postAll(inn: InnServer, files: { name: string; bytes: Buffer }[]): Promise<PostedFile[]> {
  const out: PostedFile[] = [];
  for (const f of files) out.push(await inn.postFile(f.name, f.bytes, { connections: 8 }));
  return out;
}

async function importTimed(srv: TestServer, inn: InnServer, name: string, posted: PostedFile[]) {
  const t0 = performance.now();
  const up = await upload(
    srv.baseUrl,
    `${name}.nzb`,
    buildNzb(posted, inn.group, POSTER).replace(
      /(<nzb [^>]*>\n)/,
      `$1  <head><meta type="password">bench</meta></head>\n`,
    ),
  );
  const item = await waitForItem(srv.baseUrl, up.body.data!.id, undefined, { hungAfterMs: 300_000 });
  if (item.status !== 'completed') throw new Error(`${name}: ${item.error_message}`);
  return { ms: performance.now() - t0, dir: item.target_path! };
}

export async function run(log: (m: string) => void): Promise<string> {
  const inn = await ensureInn();
  const data = randomBytes(MB * 1024 * 1024);
  // a Matroska file starts with the EBML signature: RAR 3 has no password check value, and the importer checks the
  // decrypted first block of a .mkv against it (docs/archives.md, "Passwords")
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3]).copy(data);
  const volumeSize = Math.ceil(data.length / VOLUMES) + 4096;
  log(`posting ${MB} MiB four ways (plain; ${VOLUMES} volumes of stored RAR5, AES RAR5, AES RAR 3)`);
  const plain = await postAll(inn, [{ name: 'Bench.Plain.mkv', bytes: data }]);
  const stored = writeRar5([{ name: 'Bench.Rar.mkv', data }], { volumeSize, base: 'bench.rar' });
  const rar = await postAll(
    inn,
    stored.map((v) => ({ name: v.name, bytes: materialize(v) })),
  );
  const sealed = writeRar5([{ name: 'Bench.Aes.mkv', data }], { volumeSize, base: 'bench.aes', password: 'bench' });
  const aes = await postAll(
    inn,
    sealed.map((v) => ({ name: v.name, bytes: materialize(v) })),
  );
  const sealed3 = writeRar4([{ name: 'Bench.Aes3.mkv', data }], { volumeSize, base: 'bench.aes3', password: 'bench' });
  const aes3 = await postAll(
    inn,
    sealed3.map((v) => ({ name: v.name, bytes: materialize(v) })),
  );
  // default import settings (sampled STAT probe), as a user runs it
  const srv = await startServer({
    config: {
      auth: { login_required: false },
      providers: [innProvider(inn)],
      import: { queue_processing_interval_seconds: 1 },
    },
  });
  try {
    const plainImport = await importTimed(srv, inn, 'Bench.Plain', plain);
    const rarImport = await importTimed(srv, inn, 'Bench.Rar', rar);
    const aesImport = await importTimed(srv, inn, 'Bench.Aes', aes);
    const aes3Import = await importTimed(srv, inn, 'Bench.Aes3', aes3);
    log(
      `import: plain ${ms(plainImport.ms)}, ${VOLUMES}-volume RAR5 ${ms(rarImport.ms)}, AES ${ms(aesImport.ms)}, ` +
        `AES RAR 3 ${ms(aes3Import.ms)}`,
    );
    const url = (dir: string, name: string) => `${srv.baseUrl}/webdav${dir}/${name}`;
    const targets = {
      plain: url(plainImport.dir, 'Bench.Plain.mkv'),
      rar: url(rarImport.dir, 'Bench.Rar.mkv'),
      aes: url(aesImport.dir, 'Bench.Aes.mkv'),
      aes3: url(aes3Import.dir, 'Bench.Aes3.mkv'),
    };
    const speeds: Record<keyof typeof targets, number[]> = { plain: [], rar: [], aes: [], aes3: [] };
    await timedGet(targets.plain); // warm INN's page cache and the JIT (not reported)
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of ['plain', 'rar', 'aes', 'aes3'] as const) {
        const t = await timedGet(targets[kind]);
        if (t.bytes !== data.length) throw new Error(`${kind}: read ${t.bytes} of ${data.length} bytes`);
        speeds[kind].push(t.bytes / (t.totalMs / 1000) / 1e6);
        log(`round ${round + 1} ${kind}: ${speeds[kind].at(-1)!.toFixed(0)} MB/s`);
      }
    }
    const med = (k: keyof typeof targets) => quantile(speeds[k], 0.5);
    const pct = (k: keyof typeof targets) => `${((med(k) / med('plain')) * 100).toFixed(0)}%`;
    return [
      `| What (${MB} MiB, ${VOLUMES} volumes, ${ROUNDS} rounds, medians) | Figure | Target |`,
      '|---|---|---|',
      `| Import, plain file | ${ms(plainImport.ms)} | |`,
      `| Import, ${VOLUMES}-volume stored RAR5 set | ${ms(rarImport.ms)} | < 3000 ms |`,
      `| Import, ${VOLUMES}-volume AES RAR5 set (KDF 2^15) | ${ms(aesImport.ms)} | |`,
      `| Import, ${VOLUMES}-volume AES-128 RAR 3 set | ${ms(aes3Import.ms)} | |`,
      `| WebDAV GET, plain | ${med('plain').toFixed(0)} MB/s | |`,
      `| WebDAV GET, stored RAR5 member | ${med('rar').toFixed(0)} MB/s (${pct('rar')} of plain) | >= 90% |`,
      `| WebDAV GET, AES RAR5 member | ${med('aes').toFixed(0)} MB/s (${pct('aes')} of plain) | >= 70% |`,
      `| WebDAV GET, AES-128 RAR 3 member | ${med('aes3').toFixed(0)} MB/s (${pct('aes3')} of plain) | >= 70% |`,
    ].join('\n');
  } finally {
    await srv.stop();
  }
}
