/**
 * What the NNTP pool's unit tests (appliance/nntp/*.test.ts) set up around the fake server, in one place: servers
 * and pools that are closed after the file's tests, a provider entry pointing at a server, and single-part yEnc
 * articles. Each test still says which servers, articles and pool options it uses.
 */
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import type { ProviderConfig } from '../../../appliance/nntp/index.js';
import { encodeArticleBody, type PartSpec } from '../yenc/encode.js';
import { FakeNntpServer, type FakeNntpOptions } from './server.js';

interface Closable {
  close(): Promise<void>;
}

/**
 * The fake servers and pools of one test file. Call once at the top of the file: it registers an `after` hook that
 * closes every pool (and anything else handed to `closeAfterTests`) first, since those hold connections to the
 * servers, then every server `fake` started.
 */
export function fakeNntpFixture(): {
  /** Starts a fake server with these options, closed after the file's tests. */
  fake(opts?: FakeNntpOptions): Promise<FakeNntpServer>;
  /** Closes `thing` (a pool, a relay) after the file's tests, before the servers; returns it. */
  closeAfterTests<T extends Closable>(thing: T): T;
} {
  const servers: FakeNntpServer[] = [];
  const clients: Closable[] = [];
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.close()));
  });
  return {
    async fake(opts = {}) {
      const s = await FakeNntpServer.start(opts);
      servers.push(s);
      return s;
    },
    closeAfterTests(thing) {
      clients.push(thing);
      return thing;
    },
  };
}

/**
 * A provider entry for a server on loopback (a fake, a relay in front of one, or a port where nothing listens):
 * plain TCP, primary, 2 connections, the fake's own AUTHINFO pair if it asks for one; `over` changes single fields.
 */
export function fakeProvider(
  s: { host: string; port: number; options?: FakeNntpOptions },
  over: Partial<ProviderConfig> = {},
): ProviderConfig {
  return {
    id: `p${s.port}`,
    host: s.host,
    port: s.port,
    username: s.options?.username ?? '',
    password: s.options?.password ?? '',
    max_connections: 2,
    tls: false,
    insecure_tls: false,
    enabled: true,
    is_backup_provider: false,
    ...over,
  };
}

/**
 * Adds `data` (or that many random bytes) to `s` under `id` as one single-part yEnc article named f.bin (`extra`
 * changes the yEnc header or corrupts it); returns the bytes a decoder must give back.
 */
export function addYencArticle(
  s: FakeNntpServer,
  id: string,
  data: Buffer | number,
  extra: Partial<PartSpec> = {},
): Buffer {
  const bytes = typeof data === 'number' ? randomBytes(data) : data;
  s.addArticle(
    id,
    encodeArticleBody({
      name: 'f.bin',
      fileSize: bytes.length,
      part: 1,
      totalParts: 1,
      offset: 0,
      data: bytes,
      ...extra,
    }),
  );
  return bytes;
}
