/**
 * The PAR2 bench's release (bench/par2.bench.ts): one file of random bytes (SPOOL_BENCH_PAR2_MB MiB) and the
 * recovery set Debian's `par2 create -r5` makes for it, posted to the bench INN as 768,000-byte yEnc articles, with
 * its NZB. `damage` picks articles of the file (never its first: the import reads it) spread over it until the
 * slices they touch make half the recovery slices; the bench cancels them from INN once the server has imported the
 * release, so they answer 430 as on a provider that lost them.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { readPar2Set } from '../../appliance/par2/set.js';
import { buildNzb, type PostedFile } from '../../tests/support/inn/poster.js';
import type { InnServer } from '../../tests/support/inn/server.js';
import { film } from '../../tests/support/media/film.js';

const ARTICLE = 768_000;

export interface Par2Release {
  dir: string;
  name: string;
  size: number;
  sliceSize: number;
  recoverySlices: number;
  media: PostedFile;
  par2Names: string[];
  nzbXml: string;
  createMs: number;
}

export async function postPar2Release(inn: InnServer, mb: number, log: (m: string) => void): Promise<Par2Release> {
  const dir = path.join('/var/tmp', `spool-bench-par2-server-${mb}mb`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const name = 'Par2.Bench.2024.1080p.mkv';
  const size = mb * 2 ** 20 - 4093; // a short last slice
  writeRandom(path.join(dir, name), size);
  log(`par2 create -r5 over ${mb} MiB`);
  const t0 = performance.now();
  execFileSync('par2', ['create', '-q', '-q', '-r5', 'release.par2', name], { cwd: dir });
  const createMs = performance.now() - t0;
  const par2Names = readdirSync(dir).filter((n) => n.endsWith('.par2'));
  let recoverySlices = 0;
  for (const v of par2Names) recoverySlices += Number(/\+(\d+)\.par2$/.exec(v)?.[1] ?? 0);
  const { sliceSize } = readPar2Set([readFileSync(path.join(dir, 'release.par2'))]);
  log(`posting ${1 + par2Names.length} files to INN`);
  const media = await inn.postFile(name, readFileSync(path.join(dir, name)), { articleSize: ARTICLE, connections: 4 });
  const volumes: PostedFile[] = [];
  for (const n of par2Names)
    volumes.push(await inn.postFile(n, readFileSync(path.join(dir, n)), { articleSize: ARTICLE, connections: 4 }));
  const nzbXml = buildNzb([media, ...volumes], inn.group, 'bench@spool.test');
  return { dir, name, size, sliceSize, recoverySlices, media, par2Names, nzbXml, createMs };
}

/** Articles of the file to cancel, spread over it, touching at most half the recovery slices; and those slices. */
export function damage(r: Par2Release): { cancelled: string[]; slices: number } {
  const target = Math.floor(r.recoverySlices / 2);
  const segs = r.media.segments;
  const touched = new Set<number>();
  const cancelled: string[] = [];
  const step = Math.max(2, Math.floor(segs.length / target));
  for (let n = 1; n < segs.length; n += step) {
    const s = segs[n]!;
    const from = Math.floor(s.offset / r.sliceSize);
    const to = Math.floor((s.offset + s.size - 1) / r.sliceSize);
    const slices = Array.from({ length: to - from + 1 }, (_, t) => from + t);
    if (new Set([...touched, ...slices]).size > target) continue;
    for (const t of slices) touched.add(t);
    cancelled.push(s.messageId);
  }
  return { cancelled, slices: touched.size };
}

/** par2cmdline's local copy: the file with each cancelled article's bytes zeroed, and the .par2 files. */
export function damagedCopy(r: Par2Release, cancelled: string[], to: string): void {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const n of [r.name, ...r.par2Names])
    execFileSync('cp', ['--reflink=auto', path.join(r.dir, n), path.join(to, n)]);
  const gone = new Set(cancelled);
  const fd = openSync(path.join(to, r.name), 'r+');
  for (const s of r.media.segments) if (gone.has(s.messageId)) writeSync(fd, Buffer.alloc(s.size), 0, s.size, s.offset);
  closeSync(fd);
}

function writeRandom(file: string, size: number): void {
  const fd = openSync(file, 'w');
  for (let at = 0; at < size; at += 2 ** 24)
    writeSync(fd, (at === 0 ? film : randomBytes)(Math.min(2 ** 24, size - at)));
  closeSync(fd);
}
