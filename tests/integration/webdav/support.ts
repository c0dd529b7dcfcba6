import { createHash } from 'node:crypto';
import http from 'node:http';
import type { PostedFile } from '../../support/inn/poster.js';
import type { TestServer } from '../../support/server.js';
import type { FileLayout } from '../../../appliance/vfs/types.js';

export const DAV_USER = 'dav';
export const DAV_PASS = 's3cret-dav';
export const AUTH = 'Basic ' + Buffer.from(`${DAV_USER}:${DAV_PASS}`).toString('base64');

/** The article map of a posted file, straight from what the harness posted (the importer builds the same). */
export function layoutOf(posted: PostedFile): FileLayout {
  return {
    size: posted.size,
    segments: posted.segments.map((s) => ({ messageId: s.messageId, start: s.offset, end: s.offset + s.size })),
  };
}

export async function addPosted(
  srv: TestServer,
  category: string,
  job: string,
  files: PostedFile[],
): Promise<string[]> {
  const res = await srv.app().streaming.vfs.addJob({
    category,
    jobName: job,
    files: files.map((f) => ({ name: f.name, size: f.size, layout: layoutOf(f), sourceNzbPath: `/nzb/${job}.nzb` })),
  });
  return res.files;
}

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export function davUrl(srv: TestServer, path: string): string {
  return `${srv.baseUrl}/webdav${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** A raw request that keeps the path exactly as written (fetch and URL would normalise '..'). */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, headers: { Authorization: AUTH, ...headers } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
