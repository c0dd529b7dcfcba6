/**
 * What the real-provider benchmarks (issue 15: tls, latency, playback) share: INN's TLS front (`nnrpd -S` with a
 * throwaway CA, tests/support/inn/tls.ts), the pool metrics sampled while a read runs, waiting for the pool to
 * go quiet between reads, and the closing table (measure, figure, target).
 */
import path from 'node:path';
import { ensureInnTls } from '../../tests/support/inn/tls.js';
import type { ChildServer } from '../../tests/support/child-server.js';
import type { Fixture } from './fixture.js';
import { poolMetrics, type PoolSample } from './spool-server.js';

export const MIB = 2 ** 20;
export const GIB = 2 ** 30;
export const MB = 1_000_000;

export interface TlsFront {
  host: string;
  port: number;
  /** PEM file of the CA that issued nnrpd's certificate (trusted by the clients; checks stay on). */
  caFile: string;
}

/** INN's implicit-TLS front on loopback, started once and reused (its CA file lives next to the INN spool). */
export async function tlsFront(f: Fixture): Promise<TlsFront> {
  const t = await ensureInnTls(f.inn);
  return { host: t.host, port: t.port, caFile: path.join(f.inn.root, 'etc', 'tls', 'ca.pem') };
}

/** Whether the delay proxy ACKs every read at once (bench/lib/delay-proxy.ts); SPOOL_BENCH_PROXY_QUICKACK=0: no. */
export function proxyQuickAck(): boolean {
  return process.env.SPOOL_BENCH_PROXY_QUICKACK !== '0';
}

/** An env number with a default (the benches are sized by env, docs/performance.md). */
export function envNumber(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name}=${v} is not a number`);
  return n;
}

/** Samples the server's pool every `everyMs` until stop(): how many articles were on the wire. */
export function samplePool(srv: ChildServer, everyMs = 20) {
  const inFlight: number[] = [];
  let maxConnections = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const m = await poolMetrics(srv).catch(() => undefined);
      if (m) {
        inFlight.push(m.in_flight_commands);
        maxConnections = Math.max(maxConnections, m.active_connections);
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const busy = inFlight.filter((n) => n > 0);
      return {
        samples: inFlight.length,
        max: Math.max(0, ...inFlight),
        /** Mean over the samples where anything was in flight (the read's own time, not the gaps). */
        meanBusy: busy.length === 0 ? 0 : busy.reduce((s, n) => s + n, 0) / busy.length,
        maxConnections,
      };
    },
  };
}

/** Polls the server's pool metrics until `done` holds or `timeoutMs` passed; the last sample and whether it held. */
async function pollPool(
  srv: ChildServer,
  done: (m: PoolSample) => boolean,
  timeoutMs: number,
): Promise<{ m: PoolSample; held: boolean }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const m = await poolMetrics(srv);
    if (done(m)) return { m, held: true };
    if (Date.now() > until) return { m, held: false };
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits (bounded) until nothing is on the wire or queued, so a read does not share the link with the last one. */
export async function waitPoolIdle(srv: ChildServer, timeoutMs = 10_000): Promise<PoolSample> {
  return (await pollPool(srv, (m) => m.in_flight_commands === 0 && m.waiting_requests === 0, timeoutMs)).m;
}

/** Waits until the pool holds the connection of its idle floor, as it does between plays; throws after 30 s. */
export async function waitIdleConnection(srv: ChildServer, timeoutMs = 30_000): Promise<void> {
  if (!(await pollPool(srv, (m) => m.active_connections >= 1, timeoutMs)).held)
    throw new Error(`the pool did not open its idle connection within ${timeoutMs / 1000} s`);
}

/** The closing table every issue 15 bench ends with. */
export function resultTable(rows: Array<[measure: string, figure: string, target: string]>): string {
  return ['| measure | figure | target |', '|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** "met" / "**not met**" for a target, so a reader sees at once which are met. */
export function met(ok: boolean): string {
  return ok ? 'met' : '**not met**';
}

export const ms = (v: number) => `${v.toFixed(1)} ms`;
