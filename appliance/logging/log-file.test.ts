import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DEFAULTS } from '../config/defaults.js';
import { LogFile, rotatedName, type LogSettings } from './log-file.js';
import { createLogger } from './logger.js';
import { waitUntil } from '../../tests/support/wait.js';

const settings = (over: Partial<LogSettings>): LogSettings => ({ ...DEFAULTS.log, ...over });

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'spool-log-'));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const until = async (cond: () => boolean, what: string) => {
  await waitUntil(what, cond, { everyMs: 25 });
};

test('log.file: lines go to the file (relative paths under the data dir) at log.level, as well as stdout', () =>
  withDir(async (dir) => {
    const stdout: string[] = [];
    const logger = createLogger('spool', 'debug', (l) => stdout.push(l));
    const file = new LogFile(logger, dir);
    file.apply(settings({ file: 'logs/spool.log', level: 'warn' }));
    logger.child('x').info('not at warn');
    logger.child('x').warn('kept', { n: 1 });
    await file.close();
    const lines = readFileSync(join(dir, 'logs', 'spool.log'), 'utf8')
      .trim()
      .split('\n');
    assert.equal(lines.length, 1);
    assert.deepEqual((({ level, scope, msg, n }) => ({ level, scope, msg, n }))(JSON.parse(lines[0] as string)), {
      level: 'warn',
      scope: 'spool.x',
      msg: 'kept',
      n: 1,
    });
    assert.equal(stdout.length, 1, 'stdout gets the same line');
    logger.warn('after close');
    assert.equal(
      readFileSync(join(dir, 'logs', 'spool.log'), 'utf8')
        .trim()
        .split('\n').length,
      1,
    );
  }));

test('the file rotates at max_size MB, gzips rotated files and keeps at most max_backups', () =>
  withDir(async (dir) => {
    const logger = createLogger('spool', 'info', () => undefined);
    const file = new LogFile(logger, dir);
    file.apply(settings({ file: join(dir, 'spool.log'), max_size: 1, max_backups: 2, compress: true }));
    const pad = 'x'.repeat(1000);
    // About 4.5 MB: four rotations, of which only the last two backups may remain.
    for (let i = 0; i < 4500; i++) {
      logger.info('line', { i, pad });
      if (i % 500 === 0) await new Promise((r) => setTimeout(r, 20)); // let rotations run between bursts
    }
    const backups = () => readdirSync(dir).filter((n) => /^spool\.log\.\d{8}-\d{6}\.\d+\.gz$/.test(n));
    await until(() => backups().length === 2, `two gzipped backups, found ${readdirSync(dir).join(', ')}`);
    await file.close();
    for (const name of backups()) {
      const text = gunzipSync(readFileSync(join(dir, name))).toString('utf8');
      const first = JSON.parse(text.split('\n')[0] as string) as { msg: string; i: number };
      assert.equal(first.msg, 'line');
      assert.ok(text.length > 900_000 && text.length < 1_100_000, `${name}: ${text.length} bytes`);
    }
    const numbers = backups()
      .flatMap((n) =>
        gunzipSync(readFileSync(join(dir, n)))
          .toString('utf8')
          .trim()
          .split('\n'),
      )
      .map((l) => (JSON.parse(l) as { i: number }).i);
    assert.ok(Math.min(...numbers) > 1000, 'the oldest backups were removed');
  }));

test('rotated files older than max_age days are deleted; with compress off they stay plain', () =>
  withDir(async (dir) => {
    const old = join(dir, rotatedName('spool.log', new Date('2020-01-01T00:00:00Z'), 1, true));
    const recent = join(dir, rotatedName('spool.log', new Date(), 1, true));
    const unrelated = join(dir, 'other.log.20200101-000000.1.gz');
    for (const f of [old, recent, unrelated]) writeFileSync(f, 'x');
    const fortyDaysAgo = (Date.now() - 40 * 24 * 3600 * 1000) / 1000;
    utimesSync(old, fortyDaysAgo, fortyDaysAgo);
    utimesSync(unrelated, fortyDaysAgo, fortyDaysAgo);
    const logger = createLogger('spool', 'info', () => undefined);
    const file = new LogFile(logger, dir);
    file.apply(settings({ file: join(dir, 'spool.log'), max_age: 30, max_size: 1, compress: false }));
    assert.equal(existsSync(old), false, 'past max_age: deleted');
    assert.equal(existsSync(recent), true);
    assert.equal(existsSync(unrelated), true, 'only our own rotated files are touched');
    const pad = 'y'.repeat(1000);
    for (let i = 0; i < 1200; i++) logger.info('line', { i, pad });
    const plain = () => readdirSync(dir).filter((n) => /^spool\.log\.\d{8}-\d{6}\.\d+$/.test(n));
    await until(() => plain().length === 1, `one plain backup, found ${readdirSync(dir).join(', ')}`);
    await file.close();
    assert.match(readFileSync(join(dir, plain()[0] as string), 'utf8'), /^\{"t":/);
  }));

test('a log file that cannot be opened is reported on stdout and logging goes on', () =>
  withDir(async (dir) => {
    writeFileSync(join(dir, 'not-a-dir'), '');
    const stdout: string[] = [];
    const logger = createLogger('spool', 'info', (l) => stdout.push(l));
    const file = new LogFile(logger, dir);
    file.apply(settings({ file: join(dir, 'not-a-dir', 'spool.log') }));
    logger.info('still logging');
    await until(() => stdout.some((l) => l.includes('log file unavailable')), 'the failure is reported');
    assert.ok(stdout.some((l) => l.includes('still logging')));
    await file.close();
  }));
