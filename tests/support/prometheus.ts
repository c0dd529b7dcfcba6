/**
 * A real Prometheus (Debian's `prometheus` package, scripts/system-deps.mjs) on a free loopback port with a temp
 * config and data dir, for the metrics tests. Stopped by its PID; the temp dir goes with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { freePort } from './free-port.js';

export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';

export interface ScrapeJob {
  job_name: string;
  target: string;
  /** Sent as `Authorization: Bearer <key>`; none when undefined. */
  bearer?: string;
}

export interface PrometheusServer {
  url: string;
  /** GET /api/v1/<path> of Prometheus's HTTP API, its `data`. */
  get<T>(path: string): Promise<T>;
  stop(): Promise<void>;
}

export async function startPrometheus(jobs: ScrapeJob[], ruleFiles: string[] = []): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'spool-prometheus-'));
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    rule_files: ruleFiles,
    scrape_configs: jobs.map((j) => ({
      job_name: j.job_name,
      metrics_path: '/metrics',
      ...(j.bearer !== undefined ? { authorization: { credentials: j.bearer } } : {}),
      static_configs: [{ targets: [j.target] }],
    })),
  };
  writeFileSync(join(dir, 'prometheus.yml'), stringify(config));
  const port = await freePort();
  const child = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await kill(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, child, () => stderr);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    async get<T>(path: string): Promise<T> {
      const res = await fetch(`${url}/api/v1/${path}`);
      const body = (await res.json()) as { status: string; data: T; error?: string };
      if (body.status !== 'success') throw new Error(`Prometheus ${path}: ${body.error ?? res.status}`);
      return body.data;
    },
    stop,
  };
}

async function waitReady(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}: ${stderr()}`);
    const ok = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`prometheus did not become ready in 30 s: ${stderr()}`);
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    process.kill(child.pid!, 'SIGTERM');
  });
}
