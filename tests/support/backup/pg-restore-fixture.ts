/**
 * What the restore tests on PostgreSQL share: one real PostgreSQL server and one pattern NNTP server for the test
 * file (started before its tests, stopped after them), the config every install of the file runs with, and a backup
 * made on a fresh install holding a generated library.
 */
import { after, before } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildLibrary } from '../../../bench/lib/scale-library.js';
import { startPatternServer, type PatternServer } from '../../../bench/lib/pattern-nntp.js';
import { startPostgres, type PostgresServer } from '../postgres/server.js';
import { startServer, type TestServer } from '../server.js';
import { apiCall, DAV } from './library.js';

export interface PgRestoreFixture {
  pg(): PostgresServer;
  /** The install's config: no login, the backup tests' WebDAV account, the pattern server as its provider. */
  config(extra?: Record<string, unknown>): Record<string, unknown>;
  /** The same config with the install's store in the PostgreSQL database at `url`. */
  onPostgres(url: string): Record<string, unknown>;
  /**
   * Starts an install with `config`, builds a library of `files` files (seeded) in it, lets `prepare` change it,
   * backs it up, stops it, and answers the archive's bytes, the files built and the store the backup says it holds.
   */
  backup(
    config: Record<string, unknown>,
    library: { files: number; seed: number },
    prepare?: (srv: TestServer) => void,
  ): Promise<{ archive: Buffer; files: number; store: string }>;
}

/** Registers the file's before/after hooks; call it once at the top of a test file. */
export function usePgRestoreFixture(): PgRestoreFixture {
  let pg: PostgresServer | undefined;
  let nntp: PatternServer | undefined;
  before(async () => {
    pg = await startPostgres();
    nntp = await startPatternServer();
  });
  after(async () => {
    await nntp?.close();
    await pg?.stop();
  });
  const config = (extra: Record<string, unknown> = {}) => ({
    auth: { login_required: false },
    webdav: DAV,
    providers: [{ host: nntp!.host, port: nntp!.port, username: 'u', password: 'p', max_connections: 4 }],
    ...extra,
  });
  return {
    pg: () => pg!,
    config,
    onPostgres: (url) => config({ metadata: { root_path: './metadata', database_url: url } }),
    async backup(cfg, library, prepare) {
      const srv = await startServer({ config: cfg });
      try {
        const built = await buildLibrary(srv.app(), { ...library, articleFactor: 0.0005 }, () => undefined);
        prepare?.(srv);
        const made = await apiCall<{ name: string; store: string }>(srv, 'POST', '/api/system/backups');
        return {
          archive: readFileSync(join(srv.dataDir, 'backups', made.name)),
          files: built.files,
          store: made.store,
        };
      } finally {
        await srv.stop();
      }
    },
  };
}
