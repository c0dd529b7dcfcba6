/**
 * What the backup tests read back: every file of the tree, and a file's bytes as the pattern server's articles
 * decode (bench/lib/pattern-nntp.ts), read through the real server's /webdav and compared byte for byte.
 */
import assert from 'node:assert/strict';
import { PATTERN_ARTICLE } from '../../../bench/lib/pattern-nntp.js';
import type { VfsService } from '../../../appliance/vfs/vfs.service.js';
import type { TestServer } from '../server.js';

export const DAV = { user: 'player', password: 'player-pass-1' };
const AUTH = `Basic ${Buffer.from(`${DAV.user}:${DAV.password}`).toString('base64')}`;
const EBML = 0x1a45dfa3;

/** The bytes of a pattern file of `articles` articles: article P is 768,000 bytes of P after a header. */
export function patternBytes(articles: number): Buffer {
  return Buffer.concat(
    Array.from({ length: articles }, (_, i) => {
      const data = Buffer.alloc(PATTERN_ARTICLE, (i + 1) & 0xff);
      data.writeUInt32BE(EBML, 0);
      data.writeUInt32BE(i + 1, 4);
      return data;
    }),
  );
}

export function allFiles(vfs: VfsService, dir = '/', out: string[] = []): string[] {
  for (const n of vfs.list(dir)) {
    if (n.type === 'directory') allFiles(vfs, n.path, out);
    else out.push(n.path);
  }
  return out;
}

/** Reads `count` files spread over the whole tree through /webdav and checks each byte for byte. */
export async function assertSampledFilesServe(srv: TestServer, count: number): Promise<void> {
  const vfs = srv.app().streaming.vfs;
  const files = allFiles(vfs);
  const step = Math.max(1, Math.floor(files.length / count));
  for (let i = 0; i < Math.min(count, files.length); i++) {
    const path = files[i * step]!;
    const articles = vfs.layout(vfs.requireNode(path)).segments.length;
    const url = `${srv.baseUrl}/webdav${path.split('/').map(encodeURIComponent).join('/')}`;
    const res = await fetch(url, { headers: { Authorization: AUTH } });
    assert.equal(res.status, 200, path);
    const got = Buffer.from(await res.arrayBuffer());
    assert.ok(got.equals(patternBytes(articles)), `${path}: the bytes served are the articles' bytes`);
  }
}

/** A request to the API of a server whose login is not required; asserts a 200 and answers `data`. */
export async function apiCall<T>(srv: TestServer, method: string, path: string, body?: Uint8Array): Promise<T> {
  const init: RequestInit = body ? { method, body, headers: { 'Content-Type': 'application/x-tar' } } : { method };
  const res = await fetch(`${srv.baseUrl}${path}`, init);
  const answer = (await res.json()) as { success: boolean; data: T };
  assert.equal(res.status, 200, JSON.stringify(answer));
  return answer.data;
}

/** Waits for the supervisor's `n`th completed restart. */
export async function restarted(srv: TestServer, n: number): Promise<void> {
  while (srv.restarts() < n) await new Promise((r) => setTimeout(r, 100));
}
