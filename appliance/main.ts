/**
 * The Spool process: `SPOOL_DATA` (default ./data), `SPOOL_CONFIG` (default <data>/config.yaml), `SPOOL_HOST`
 * (default 0.0.0.0), `SPOOL_PORT` (overrides webdav.port, for tests), `SPOOL_FUSE_READ_AHEAD_KB` (kernel read-ahead
 * of the FUSE mount, root only; default 0 = the kernel's 128 KiB; docs/fuse.md), `SPOOL_DATABASE_URL` (a postgres://
 * URL: the shared PostgreSQL store, wins over metadata.database_url; docs/configuration.md), `SPOOL_NODE_ID` (this
 * node's name in logs and the leader lease; default host, pid and a random part). Exits 1 with one clear line when the config
 * file is invalid or the port is taken; SIGTERM/SIGINT stop gracefully (requests in progress finish).
 */
import { ConfigLoadError } from './config/index.js';
import { DATABASE_URL_MESSAGE, isDatabaseUrl } from './config/database-url.js';
import { createLogger } from './logging/logger.js';
import { serveSpool } from './supervisor.js';
import { runBackupCommand } from './backup-command.js';
import { runMigrateCommand } from './migrate-command.js';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
/** SPOOL_LOG_LEVEL, when set, wins over log.level (to debug without editing the config). */
const levelFromEnv = LEVELS.find((l) => l === process.env.SPOOL_LOG_LEVEL);
const logger = createLogger('spool', levelFromEnv ?? 'info');

function fail(message: string): never {
  process.stderr.write(`spool: ${message}\n`);
  process.exit(1);
}

function portFromEnv(): number | undefined {
  const raw = process.env.SPOOL_PORT;
  if (raw === undefined || raw === '') return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`SPOOL_PORT must be a port number (0-65535), got '${raw}'`);
  return port;
}

function kibFromEnv(name: string): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return 0;
  const kb = Number(raw);
  if (!Number.isInteger(kb) || kb < 0) fail(`${name} must be a whole number of KiB (0 or more), got '${raw}'`);
  return kb;
}

/** SPOOL_DATABASE_URL: checked like metadata.database_url, so a typo stops the start with a clear line. */
function databaseUrlFromEnv(): string | undefined {
  const raw = process.env.SPOOL_DATABASE_URL;
  if (raw === undefined || raw === '') return undefined;
  if (!isDatabaseUrl(raw)) fail(`SPOOL_DATABASE_URL: ${DATABASE_URL_MESSAGE}`);
  return raw;
}

async function main(): Promise<void> {
  let supervisor;
  try {
    supervisor = await serveSpool({
      host: process.env.SPOOL_HOST || '0.0.0.0',
      port: portFromEnv(),
      dataDir: process.env.SPOOL_DATA || undefined,
      configPath: process.env.SPOOL_CONFIG || undefined,
      fuseReadAheadKb: kibFromEnv('SPOOL_FUSE_READ_AHEAD_KB'),
      databaseUrl: databaseUrlFromEnv(),
      nodeId: process.env.SPOOL_NODE_ID || undefined,
      logger,
      logLevel: levelFromEnv,
      onFatal: (err) => fail(`restart failed: ${err instanceof Error ? err.message : String(err)}`),
    });
  } catch (err) {
    if (err instanceof ConfigLoadError) fail(err.message.replace(/\n/g, ' '));
    fail(err instanceof Error ? err.message : String(err));
  }
  // Tests and supervisors read this line to learn the port when SPOOL_PORT=0.
  logger.info('ready', { port: supervisor.port });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    // A second signal, or a stop that hangs, ends the process hard.
    const force = setTimeout(() => fail('shutdown took longer than 20 s; exiting'), 20_000);
    force.unref();
    supervisor.stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => fail(`error during shutdown: ${String(err)}`),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

// `spool migrate ...` (migrate-command.ts) copies an LMDB install into PostgreSQL and exits; anything else serves.
// `spool backup` / `spool restore <archive>` (backup-command.ts) write or restore a backup archive and exit.
const verb = process.argv[2];
if (verb === 'migrate') void runMigrateCommand(process.argv.slice(3)).then((code) => process.exit(code));
else if (verb === 'backup' || verb === 'restore')
  void runBackupCommand(verb, process.argv.slice(3)).then((code) => process.exit(code));
else void main();
