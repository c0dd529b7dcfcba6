/**
 * Debian nzbget downloading the fixture's NZB from the same INN: a generated config in a temp dir, the NZB dropped
 * in its NzbDir, finished when the file lands in DestDir at full size. CPU and peak RSS come from /proc.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Fixture } from './fixture.js';
import type { Measurement } from './measure.js';

const NZBGET = '/usr/bin/nzbget';

export async function runNzbget(f: Fixture, connections = 8, timeoutMs = 15 * 60_000): Promise<Measurement> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'spool-nzbget-'));
  const d = (n: string) => path.join(dir, n);
  for (const n of ['nzb', 'dest', 'inter', 'queue', 'tmp']) mkdirSync(d(n));
  const controlPort = 20000 + Math.floor(Math.random() * 20000);
  const options: Record<string, string | number> = {
    MainDir: dir,
    DestDir: d('dest'),
    InterDir: d('inter'),
    NzbDir: d('nzb'),
    QueueDir: d('queue'),
    TempDir: d('tmp'),
    LockFile: d('nzbget.lock'),
    LogFile: d('nzbget.log'),
    WebDir: '',
    ConfigTemplate: '',
    ScriptDir: '',
    ControlIP: '127.0.0.1',
    ControlPort: controlPort,
    ControlUsername: 'bench',
    ControlPassword: 'bench',
    'Server1.Active': 'yes',
    'Server1.Name': 'inn',
    'Server1.Level': 0,
    'Server1.Host': f.inn.host,
    'Server1.Port': f.inn.port,
    'Server1.Username': f.inn.username,
    'Server1.Password': f.inn.password,
    'Server1.Encryption': 'no',
    'Server1.Connections': connections,
    CrcCheck: 'yes',
    DirectWrite: 'yes',
    ArticleCache: 200,
    WriteBuffer: 1024,
    ParCheck: 'manual',
    ParRepair: 'no',
    Unpack: 'no',
    DupeCheck: 'no',
    HealthCheck: 'none',
    UpdateCheck: 'none',
    AppendCategoryDir: 'no',
    NzbDirInterval: 1,
    NzbDirFileAge: 1,
    DiskSpace: 0,
    KeepHistory: 0,
    OutputMode: 'loggable',
    WriteLog: 'append',
    ContinuePartial: 'no',
    ArticleTimeout: 60,
    UrlTimeout: 60,
  };
  writeFileSync(
    d('nzbget.conf'),
    Object.entries(options)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') + '\n',
  );
  writeFileSync(d('nzb/bench.nzb'), f.file.nzbXml);
  const t0 = performance.now();
  const child = spawn(NZBGET, ['-c', d('nzbget.conf'), '-s'], { stdio: 'ignore' });
  let peakKb = 0;
  let cpuTicks = 0;
  const target = f.file.size;
  try {
    for (;;) {
      const status = safeRead(`/proc/${child.pid}/status`);
      const hwm = /VmHWM:\s+(\d+)/.exec(status);
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      const stat = safeRead(`/proc/${child.pid}/stat`).split(') ')[1]?.split(' ');
      if (stat) cpuTicks = Number(stat[11]) + Number(stat[12]);
      if (finished(d('dest'), target)) break;
      if (child.exitCode !== null)
        throw new Error(`nzbget exited early (${child.exitCode}); log: ${safeRead(d('nzbget.log')).slice(-800)}`);
      if (performance.now() - t0 > timeoutMs) throw new Error('nzbget did not finish in time');
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (performance.now() - t0) / 1000;
    return { name: 'nzbget', bytes: target, seconds, cpuSeconds: cpuTicks / 100, peakRssMb: peakKb / 1024 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

function finished(destDir: string, size: number): boolean {
  const walk = (p: string): boolean =>
    readdirSync(p, { withFileTypes: true }).some((e) =>
      e.isDirectory()
        ? walk(path.join(p, e.name))
        : e.name.endsWith('.bin') && statSync(path.join(p, e.name)).size === size,
    );
  return walk(destDir);
}

function safeRead(p: string): string {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
  }
}
