import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import type { SpoolConfig } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import { RcloneClient, rcUrl } from './rclone.client.js';

/** How long a started rcd has to answer core/version, and to exit after SIGTERM. */
const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5_000;

/**
 * The rcd Spool starts itself when the rclone backend has no rcd to talk to: `rc_url` empty and nothing answering
 * on 127.0.0.1:`rc_port`. Then the keys that are rclone command-line flags apply as flags: `cache_dir`
 * (`--cache-dir`), `syslog` (`--syslog`, when this host has /dev/log), `log_level`; rclone's log lines go to Spool's
 * log (scope `…rclone.rcd`). It listens on loopback only, with `rc_user`/`rc_pass` when set.
 */
export class RcdProcess {
  private child: ChildProcess | null = null;

  constructor(private readonly logger: Logger) {}

  /** True while a child rcd started by us runs. */
  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Makes sure an rcd answers for `c`: an external one (rc_url set, or one already on rc_port) is left alone;
   * otherwise one is started and waited for (bounded). Throws with rclone's own words when it cannot start.
   */
  async ensure(c: SpoolConfig): Promise<void> {
    const r = c.rclone;
    const client = new RcloneClient({ url: rcUrl(r), user: r.rc_user, pass: r.rc_pass, timeoutMs: 2_000 });
    if (r.rc_url.trim() || this.running || (await answers(client))) return;
    mkdirSync(r.cache_dir, { recursive: true });
    const args = rcdArgs(c, existsSync('/dev/log'));
    if (r.syslog && !args.includes('--syslog'))
      this.logger.warn('rclone syslog is on but this host has no /dev/log: rclone logs to Spool instead');
    // The RC password goes by environment, not argv, so `ps` does not show it.
    const env = { ...process.env, RCLONE_RC_USER: r.rc_user, RCLONE_RC_PASS: r.rc_pass };
    const child = spawn('rclone', args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    this.child = child;
    let spawnError = '';
    const tail: string[] = [];
    const log = this.logger.child('rcd');
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        tail.push(line);
        if (tail.length > 5) tail.shift();
        log.info(line.slice(0, 2_000));
      }
    };
    child.stdout?.on('data', onLine);
    child.stderr?.on('data', onLine);
    child.on('error', (err) => (spawnError = err.message)); // e.g. ENOENT: rclone is not installed
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await answers(client))) {
      if (spawnError || !this.running || Date.now() > deadline) {
        if (!spawnError) await this.stop();
        this.child = null;
        throw new Error(`rclone rcd did not start: ${spawnError || tail.join(' | ') || 'no answer on ' + rcUrl(r)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    this.logger.info('started rclone rcd', { pid: child.pid, url: rcUrl(r), cache_dir: r.cache_dir });
  }

  /** Stops the rcd we started (SIGTERM, then SIGKILL after a grace period); nothing when we started none. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
}

/** The command line of Spool's own rcd: loopback on rc_port, the flag-only keys (cache_dir, log_level, syslog). */
export function rcdArgs(c: SpoolConfig, hasSyslog: boolean): string[] {
  const r = c.rclone;
  // No config file: the mount's remote is a connection string (rc-mount-options.ts webdavFs).
  const args = ['rcd', `--rc-addr=127.0.0.1:${r.rc_port}`, '--config=/dev/null', `--cache-dir=${r.cache_dir}`];
  // Credentials come from RCLONE_RC_USER/RCLONE_RC_PASS (see ensure); without a user the loopback RC is open.
  if (!r.rc_user) args.push('--rc-no-auth');
  args.push(`--log-level=${r.log_level === 'WARN' ? 'WARNING' : r.log_level}`);
  if (r.syslog && hasSyslog) args.push('--syslog');
  return args;
}

async function answers(client: RcloneClient): Promise<boolean> {
  return client.version().then(
    () => true,
    () => false,
  );
}
