/**
 * Runs one measurement in its own process so CPU time and peak RSS belong to it alone.
 * argv: <mode raw|pool|readers> <fixture.json> <host> <port> <user> <pass>; prints one JSON line.
 * Env (issue 15 benches): SPOOL_FETCH_TLS_CA=<CA PEM file> speaks implicit TLS trusting that CA;
 * SPOOL_FETCH_CONNECTIONS (default 8) and SPOOL_FETCH_DEPTH (commands in flight per connection, default 4);
 * SPOOL_FETCH_QUICKACK=0 turns the raw connections' quick ACKs off (appliance/nntp/tcp-quickack.ts), to measure them.
 */
import { readFileSync } from 'node:fs';
import { NntpConnection } from '../../appliance/nntp/connection.js';
import { NntpPool } from '../../appliance/nntp/pool.js';
import type { PostedFile } from '../../tests/support/inn/poster.js';

const [mode, fixture, host, port, username, password] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const file = JSON.parse(readFileSync(fixture, 'utf8')) as PostedFile;
const ids = file.messageIds.map((id) => `<${id}>`);
const CONNECTIONS = Number(process.env.SPOOL_FETCH_CONNECTIONS ?? 8);
const DEPTH = Number(process.env.SPOOL_FETCH_DEPTH ?? 4);
const caFile = process.env.SPOOL_FETCH_TLS_CA;
const tlsCa = caFile ? readFileSync(caFile, 'utf8') : undefined;
const server = {
  host,
  port: Number(port),
  username,
  password,
  tls: tlsCa !== undefined,
  insecureTls: false,
  tlsCa,
  quickAck: process.env.SPOOL_FETCH_QUICKACK !== '0',
};

/** (a) 8 connections, each keeping 4 BODY commands in flight (by default), bodies skipped unread. */
async function raw(): Promise<number> {
  let next = 0;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const conn = await NntpConnection.open(server);
      const lane = async () => {
        while (next < ids.length) {
          const n = await conn.bodyRaw(ids[next++]!); // read before adding: `x += await` would lose updates
          bytes += n;
        }
      };
      await Promise.all(Array.from({ length: DEPTH }, lane));
      await conn.quit();
    }),
  );
  return bytes;
}

function newPool(pipelineDepth = 2): NntpPool {
  return new NntpPool(
    [
      {
        id: 'inn',
        host: server.host,
        port: server.port,
        username,
        password,
        tls: server.tls,
        insecure_tls: false,
        max_connections: CONNECTIONS,
        enabled: true,
        is_backup_provider: false,
      },
    ],
    { pipelineDepth, tlsCa },
  );
}

/** (b) the pool fetching and decoding every article, as deep as the raw run: 8 connections x 4 in flight. */
async function pool(): Promise<number> {
  const p = newPool(DEPTH);
  let next = 0;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS * DEPTH }, async () => {
      // Each lane reuses one output buffer, as a streaming reader with its own buffers would.
      const into = Buffer.allocUnsafeSlow(1 << 20);
      while (next < ids.length) {
        const got = await p.body(ids[next++]!, { into });
        bytes += got.data.length;
      }
    }),
  );
  await p.close();
  return bytes;
}

/** 4 readers (like 4 streams reading ahead 2 articles each) sharing 8 connections. */
async function readers(): Promise<{ bytes: number; wait: number }> {
  const p = newPool();
  let bytes = 0;
  const quarter = Math.ceil(ids.length / 4);
  await Promise.all(
    Array.from({ length: 4 }, async (_, r) => {
      const mine = ids.slice(r * quarter, (r + 1) * quarter);
      let i = 0;
      const ahead = async () => {
        const into = Buffer.allocUnsafeSlow(1 << 20);
        while (i < mine.length) {
          const got = await p.body(mine[i++]!, { priority: 'stream', into });
          bytes += got.data.length;
        }
      };
      await Promise.all([ahead(), ahead()]);
    }),
  );
  const wait = p.metrics().acquire_wait_time_ms;
  await p.close();
  return { bytes, wait };
}

/** VmHWM of this process image; ru_maxrss would include the parent's peak (Linux keeps it across fork + exec). */
function peakRssKb(): number {
  const m = /VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) : process.resourceUsage().maxRSS;
}

const cpu0 = process.cpuUsage();
const t0 = performance.now();
let bytes: number;
let wait: number | undefined;
if (mode === 'raw') bytes = await raw();
else if (mode === 'pool') bytes = await pool();
else ({ bytes, wait } = await readers());
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    mode,
    bytes,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    userSeconds: cpu.user / 1e6,
    systemSeconds: cpu.system / 1e6,
    peakRssMb: peakRssKb() / 1024,
    acquireWaitMs: wait,
  }),
);
