import { mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';
import type { Logger, LogLevel } from './logger.js';

/**
 * What logging needs of the `log.*` keys (docs/configuration.md): the composition root hands the config's `log`
 * section over as it is, so logging stays under config in the layers (docs/architecture.md "Layers").
 */
export interface LogSettings {
  file: string;
  level: LogLevel;
  /** MB */
  max_size: number;
  /** days, 0: no limit */
  max_age: number;
  /** 0: no limit */
  max_backups: number;
  compress: boolean;
}

const DAY_MS = 24 * 3600 * 1000;

/** The rotation settings of `log.*` (level aside), compared to decide whether the file must be reopened. */
const fileKey = (c: LogSettings, dataDir: string) =>
  JSON.stringify([c.file ? resolve(dataDir, c.file) : '', c.max_size, c.max_age, c.max_backups, c.compress]);

const pad = (n: number) => String(n).padStart(2, '0');
/** Rotated names sort by time: spool.log.20261124-013000.1.gz */
export function rotatedName(base: string, time: Date, index: number, compress: boolean): string {
  const stamp =
    `${time.getUTCFullYear()}${pad(time.getUTCMonth() + 1)}${pad(time.getUTCDate())}-` +
    `${pad(time.getUTCHours())}${pad(time.getUTCMinutes())}${pad(time.getUTCSeconds())}`;
  return `${base}.${stamp}.${index}${compress ? '.gz' : ''}`;
}

/**
 * `log.file` with rotation (rotating-file-stream): a new file after `max_size` MB, rotated files gzipped when
 * `compress`, at most `max_backups` of them (0: no count limit) and none older than `max_age` days (0: no age
 * limit), the semantics of the Go lumberjack logger these keys come from. The stream has no age limit of its
 * own, so files past `max_age` are deleted here after each rotation and at open. A file that cannot be opened or
 * written is reported on stdout and logging carries on there: logging never stops Spool.
 */
export class LogFile {
  private stream: RotatingFileStream | null = null;
  private key = '';

  constructor(
    private readonly logger: Logger,
    private readonly dataDir: string,
  ) {}

  /** Applies `log.*`: the level at once; the file is (re)opened only when its settings changed. */
  apply(config: LogSettings, levelOverride?: LogLevel): void {
    this.logger.setLevel(levelOverride ?? config.level);
    const key = fileKey(config, this.dataDir);
    if (key === this.key) return;
    this.key = key;
    void this.close();
    if (config.file) this.open(config);
  }

  private open(config: LogSettings): void {
    const path = resolve(this.dataDir, config.file);
    const base = basename(path);
    try {
      mkdirSync(dirname(path), { recursive: true });
      const stream = createStream(
        (time, index) => (time ? rotatedName(base, new Date(time), index ?? 1, config.compress) : base),
        {
          path: dirname(path),
          size: `${config.max_size}M`,
          compress: config.compress ? 'gzip' : false,
          ...(config.max_backups > 0 ? { maxFiles: config.max_backups } : {}),
        },
      );
      stream.on('error', (err) => this.fail(stream, path, err));
      stream.on('rotated', () => this.pruneOld(path, config.max_age));
      this.stream = stream;
      this.logger.setSink((line) => stream.write(line + '\n'));
      this.pruneOld(path, config.max_age);
    } catch (err) {
      this.fail(null, path, err);
    }
  }

  /** Deletes rotated files of this log older than `maxAgeDays` (by modification time). */
  private pruneOld(path: string, maxAgeDays: number): void {
    if (maxAgeDays <= 0) return;
    const dir = dirname(path);
    const prefix = `${basename(path)}.`;
    const cutoff = Date.now() - maxAgeDays * DAY_MS;
    try {
      for (const name of readdirSync(dir)) {
        if (!name.startsWith(prefix) || !/\.\d{8}-\d{6}\.\d+(\.gz)?$/.test(name)) continue;
        const full = join(dir, name);
        if (statSync(full).mtimeMs < cutoff) unlinkSync(full);
      }
    } catch (err) {
      this.logger.warn('could not prune old log files', { dir, error: (err as Error).message });
    }
  }

  private fail(stream: RotatingFileStream | null, path: string, err: unknown): void {
    if (stream && stream !== this.stream) return;
    this.logger.setSink(null);
    this.stream = null;
    this.logger.error('log file unavailable; logging to stdout only', { file: path, error: (err as Error).message });
  }

  /** Stops writing to the file and flushes what was written. */
  close(): Promise<void> {
    const stream = this.stream;
    this.stream = null;
    this.logger.setSink(null);
    if (!stream) return Promise.resolve();
    return new Promise((done) => {
      stream.end(() => done());
    });
  }
}
