import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildNzb, type PostedFile } from '../../support/inn/poster.js';
import type { InnServer } from '../../support/inn/server.js';
import { materialize, type WrittenVolume } from '../../support/archive/volumes.js';
import { upload, waitForItem, type QueueItem } from '../import/support.js';

export const POSTER = 'Spool Test <poster@spool.test>';

/** Posts each volume (under its own name, or an obfuscated one) and returns the posted files in the given order. */
export async function postVolumes(
  inn: InnServer,
  volumes: WrittenVolume[],
  opts: { articleSize?: number; obfuscate?: boolean } = {},
): Promise<PostedFile[]> {
  const posted: PostedFile[] = [];
  for (const v of volumes) {
    const name = opts.obfuscate ? randomBytes(16).toString('hex') : v.name;
    posted.push(await inn.postFile(name, materialize(v), { articleSize: opts.articleSize ?? 100_000 }));
  }
  return posted;
}

export async function importNzb(
  baseUrl: string,
  inn: InnServer,
  name: string,
  files: PostedFile[],
  fields: Record<string, string> = {},
  xml = buildNzb(files, inn.group, POSTER),
): Promise<QueueItem & { error_code?: string | null }> {
  const up = await upload(baseUrl, name, xml, fields);
  assert.equal(up.status, 200, JSON.stringify(up.body));
  return waitForItem(baseUrl, up.body.data!.id);
}

/**
 * Runs Debian's 7-Zip (7zz) in a fresh folder `root`/`sub` holding `files` (`args`: e.g. -mx0, -p..., -v300k); returns
 * the archive's pieces, in name order.
 */
export function sevenZip(
  root: string,
  sub: string,
  files: Record<string, Buffer>,
  args: string[],
): { name: string; bytes: Buffer }[] {
  const d = join(root, sub);
  mkdirSync(join(d, 'in'), { recursive: true });
  for (const [name, bytes] of Object.entries(files)) {
    mkdirSync(join(d, 'in', name, '..'), { recursive: true });
    writeFileSync(join(d, 'in', name), bytes);
  }
  execFileSync('7zz', ['a', '-bd', ...args, join(d, 'out', `${sub}.7z`), '.'], { cwd: join(d, 'in'), stdio: 'ignore' });
  return readdirSync(join(d, 'out'))
    .sort()
    .map((name) => ({ name, bytes: readFileSync(join(d, 'out', name)) }));
}

/** The NZB with a password in its head (<meta type="password">), as an indexer hands out an encrypted release. */
export const withPassword = (xml: string, password: string) =>
  xml.replace(/(<nzb [^>]*>\n)/, `$1  <head><meta type="password">${password}</meta></head>\n`);

/** One WebDAV range GET (bytes a..b-1). */
export async function davRange(baseUrl: string, path: string, a: number, b: number): Promise<Buffer> {
  const url = `${baseUrl}/webdav${path.split('/').map(encodeURIComponent).join('/')}`;
  const res = await fetch(url, { headers: { Range: `bytes=${a}-${b - 1}` } });
  assert.equal(res.status, 206, `range ${a}-${b - 1} of ${path}`);
  return Buffer.from(await res.arrayBuffer());
}

/** Ranges a reader would hit: every given boundary (±1 and straddling), and random ones. */
export function rangesAround(size: number, boundaries: number[], random = 12): [number, number][] {
  const out: [number, number][] = [
    [0, Math.min(size, 1)],
    [Math.max(0, size - 1), size],
  ];
  for (const b of boundaries) {
    if (b <= 0 || b >= size) continue;
    out.push([b - 1, Math.min(size, b + 1)], [Math.max(0, b - 17), Math.min(size, b + 17)], [b, Math.min(size, b + 1)]);
  }
  for (let i = 0; i < random; i++) {
    const a = randomInt(0, size);
    out.push([a, Math.min(size, a + 1 + randomInt(0, 300_000))]);
  }
  return out;
}
