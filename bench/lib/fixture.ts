/**
 * The benchmark fixture: a file of SPOOL_BENCH_MB MiB (default 1024) posted once to the local INN as 768,000-byte
 * yEnc articles. The list of posted segments is cached next to the INN spool and reused while INN still has them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureInn, type InnServer } from '../../tests/support/inn/server.js';
import type { PostedFile } from '../../tests/support/inn/poster.js';
import { NntpConnection } from '../../appliance/nntp/connection.js';

export interface Fixture {
  inn: InnServer;
  file: PostedFile;
  fixturePath: string;
}

export const BENCH_MB = Number(process.env.SPOOL_BENCH_MB ?? 1024);
const ARTICLE = 768_000;

/** The fixture of `mb` MiB (default SPOOL_BENCH_MB): posted on first use, then reused while INN has it. */
export async function benchFixture(log: (m: string) => void, mb = BENCH_MB): Promise<Fixture> {
  const inn = await ensureInn();
  const fixturePath = path.join(inn.root, `bench-fixture-${mb}mb.json`);
  if (existsSync(fixturePath)) {
    const file = JSON.parse(readFileSync(fixturePath, 'utf8')) as PostedFile;
    if (await stillThere(inn, file)) return { inn, file, fixturePath };
  }
  const size = mb * 1024 * 1024;
  log(`posting a ${mb} MiB fixture to INN on port ${inn.port} (once; cached in ${fixturePath})`);
  const started = Date.now();
  const file = await inn.postFile(`spool-bench-${mb}mb.bin`, randomBytes(size), {
    articleSize: ARTICLE,
    connections: 4,
  });
  log(`posted ${file.segments.length} articles in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  writeFileSync(fixturePath, JSON.stringify(file));
  return { inn, file, fixturePath };
}

/** A plain-TCP connection to the bench INN with its credentials (raw baselines, fixture checks). */
export function openInnConnection(inn: InnServer): Promise<NntpConnection> {
  return NntpConnection.open({
    host: inn.host,
    port: inn.port,
    username: inn.username,
    password: inn.password,
    tls: false,
    insecureTls: false,
  });
}

async function stillThere(inn: InnServer, file: PostedFile): Promise<boolean> {
  const conn = await openInnConnection(inn);
  try {
    await conn.stat(`<${file.messageIds[0]}>`);
    await conn.stat(`<${file.messageIds[file.messageIds.length - 1]}>`);
    return true;
  } catch {
    return false;
  } finally {
    await conn.quit();
  }
}
