/**
 * The PAR2 bench's set (bench/par2.bench.ts): files of random bytes totalling SPOOL_BENCH_PAR2_MB MiB (a release's
 * shape: big volumes of at most 512 MiB, then a small one), a recovery set made by Debian's `par2 create -r5` over
 * them (its default 2000 input slices), everything posted to the bench INN as 768,000-byte yEnc articles, and some
 * articles of the files cancelled from INN (so they answer 430, as a provider that lost them). Made once, kept in
 * /var/tmp with the posted message ids and reused while INN still has the articles.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { readPar2Set } from '../../appliance/par2/set.js';
import { cancelArticles } from '../../tests/support/inn/cancel.js';
import { ensureInn, type InnServer } from '../../tests/support/inn/server.js';
import type { PostedFileLite } from './inn-range-reader.js';

export interface Par2Fixture {
  mb: number;
  dir: string;
  sliceSize: number;
  inputSlices: number;
  recoverySlices: number;
  createMs: number;
  files: PostedFileLite[];
  /** The .par2 files: the index (no recovery slices) first. */
  volumes: PostedFileLite[];
  cancelled: string[];
  /** The recovery set's files in slice order (the main packet's, by file id) with their first global slice. */
  sliceOrder: { name: string; firstSlice: number }[];
  /** Input slices (global index) that the cancelled articles touch. */
  damagedSlices: number[];
}

const FILE_MAX = 512 * 2 ** 20;
const ARTICLE = 768_000;

export async function par2Fixture(mb: number, log: (m: string) => void): Promise<{ inn: InnServer; f: Par2Fixture }> {
  const inn = await ensureInn();
  const dir = path.join('/var/tmp', `spool-bench-par2-${mb}mb`);
  const saved = path.join(dir, 'fixture.json');
  if (existsSync(saved)) {
    const f = JSON.parse(readFileSync(saved, 'utf8')) as Par2Fixture;
    if (await stillPosted(inn, f)) return { inn, f };
    log('the saved PAR2 set is no longer in INN: making it again');
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sizes: number[] = [];
  for (let left = mb * 2 ** 20; left > 0; left -= sizes.at(-1)!) sizes.push(Math.min(left, FILE_MAX));
  sizes[sizes.length - 1]! -= 4093; // a short, odd last file
  sizes.push(77_777);
  const names = sizes.map((_, i) => `release.part${String(i + 1).padStart(2, '0')}.rar`);
  names.forEach((name, i) => writeRandom(path.join(dir, name), sizes[i]!));
  log(`par2 create -r5 over ${mb} MiB in ${names.length} files`);
  let t0 = performance.now();
  execFileSync('par2', ['create', '-q', '-q', '-r5', 'release.par2', ...names], { cwd: dir });
  const createMs = performance.now() - t0;
  const volumeNames = readdirSync(dir)
    .filter((n) => n.endsWith('.par2'))
    .sort((a, b) => (a === 'release.par2' ? -1 : b === 'release.par2' ? 1 : a.localeCompare(b)));
  const set = readPar2Set([readFileSync(path.join(dir, 'release.par2'))]);
  let recoverySlices = 0;
  for (const v of volumeNames.slice(1)) recoverySlices += Number(/\+(\d+)\.par2$/.exec(v)?.[1] ?? 0);

  log(`posting ${names.length + volumeNames.length} files to INN on port ${inn.port}`);
  t0 = performance.now();
  const post = async (name: string): Promise<PostedFileLite> => {
    const p = await inn.postFile(name, readFileSync(path.join(dir, name)), { articleSize: ARTICLE, connections: 4 });
    return {
      name,
      size: p.size,
      segments: p.segments.map(({ messageId, offset, size }) => ({ messageId, offset, size })),
    };
  };
  const files: PostedFileLite[] = [];
  for (const n of names) files.push(await post(n));
  const volumes: PostedFileLite[] = [];
  for (const n of volumeNames) volumes.push(await post(n));
  log(`posted in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  // cancel articles spread over the files until their slices make half the recovery count
  const target = Math.floor(recoverySlices / 2);
  const all = files.flatMap((file, fi) => file.segments.map((s) => ({ fi, s })));
  const damaged = new Set<number>();
  const cancelled: string[] = [];
  const step = Math.max(1, Math.floor(all.length / target));
  for (let n = 1; n < all.length && damaged.size < target; n += step) {
    const { fi, s } = all[n]!;
    const first = set.files.find((x) => x.name === files[fi]!.name)!.firstSlice;
    const from = Math.floor(s.offset / set.sliceSize);
    const to = Math.floor((s.offset + s.size - 1) / set.sliceSize);
    const touched = Array.from({ length: to - from + 1 }, (_, t) => from + t);
    if (new Set([...damaged, ...touched.map((t) => first + t)]).size > target) continue;
    for (const t of touched) damaged.add(first + t);
    cancelled.push(s.messageId);
  }
  cancelArticles(inn, cancelled);
  const f: Par2Fixture = {
    mb,
    dir,
    sliceSize: set.sliceSize,
    inputSlices: set.checksums.length,
    recoverySlices,
    createMs,
    files,
    volumes,
    cancelled,
    sliceOrder: set.files.map((x) => ({ name: x.name, firstSlice: x.firstSlice })),
    damagedSlices: [...damaged].sort((a, b) => a - b),
  };
  writeFileSync(saved, JSON.stringify(f));
  return { inn, f };
}

/** The local copy par2cmdline repairs: the files with each cancelled article's bytes zeroed, and the volumes. */
export function damagedCopy(f: Par2Fixture, to: string): void {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const n of [...f.files, ...f.volumes].map((x) => x.name))
    execFileSync('cp', ['--reflink=auto', path.join(f.dir, n), path.join(to, n)]);
  const gone = new Set(f.cancelled);
  for (const file of f.files) {
    const fd = openSync(path.join(to, file.name), 'r+');
    for (const s of file.segments) if (gone.has(s.messageId)) writeSync(fd, Buffer.alloc(s.size), 0, s.size, s.offset);
    closeSync(fd);
  }
}

function writeRandom(file: string, size: number): void {
  const fd = openSync(file, 'w');
  for (let at = 0; at < size; at += 2 ** 24) writeSync(fd, randomBytes(Math.min(2 ** 24, size - at)));
  closeSync(fd);
  if (statSync(file).size !== size) throw new Error(`${file}: wrote ${statSync(file).size} bytes, not ${size}`);
}

async function stillPosted(inn: InnServer, f: Par2Fixture): Promise<boolean> {
  const { openInnConnection } = await import('./fixture.js');
  const conn = await openInnConnection(inn);
  try {
    await conn.stat(`<${f.files[0]!.segments[0]!.messageId}>`);
    await conn.stat(`<${f.volumes.at(-1)!.segments.at(-1)!.messageId}>`);
    return true;
  } catch {
    return false;
  } finally {
    await conn.quit();
  }
}
