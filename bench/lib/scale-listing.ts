/**
 * The scale bench's listing figures (bench/scale.bench.ts), measured the same way on each store: start to ready,
 * idle RSS, PROPFIND Depth 1 of the big folder and of a season folder, `ls -l` and `find` through the FUSE mount.
 * Issue 25 holds a node on PostgreSQL to these within 2x of one on LMDB (bench/lib/scale-compare.ts).
 */
import path from 'node:path';
import type { ChildServer } from '../../tests/support/child-server.js';
import { ms, type Figure } from './scale-figures.js';
import type { LibraryFacts } from './scale-library.js';
import { lsP50, propfindP50, rssMb, timed } from './scale-measure.js';

const IDLE_SECONDS = 15;

export interface Listing {
  startMs: number;
  idle: { total: number; anon: number; file: number };
  /** CPU seconds the server used during the idle wait (background work after start: health checks, polls). */
  idleCpu: number;
  big: { p50: number; first: number; entries: number };
  season: { p50: number; first: number; entries: number };
  ls: { p50: number; first: number; lines: number };
  find: { ms: number; lines: number };
}

/**
 * The listing figures of a server started `startMs` ago on the library (its FUSE mount at `mountPath`, started
 * here): RSS after an idle wait, then PROPFINDs, then the mount's `ls -l` and `find`.
 */
export async function measureListing(
  srv: ChildServer,
  startMs: number,
  lib: LibraryFacts,
  mountPath: string,
): Promise<Listing> {
  const cpu0 = srv.cpuSeconds();
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const idle = rssMb(srv.pid);
  const idleCpu = srv.cpuSeconds() - cpu0;
  const big = await propfindP50(srv, lib.bigFolder, 11);
  const season = await propfindP50(srv, lib.seasonFolder, 101);
  const mount = await fetch(`${srv.baseUrl}/api/rclone/mount/start`, { method: 'POST' });
  if (!mount.ok) throw new Error(`mount start: ${mount.status} ${await mount.text()}`);
  const ls = await lsP50(path.join(mountPath, lib.bigFolder), 5);
  const find = timed('find', [path.join(mountPath, 'complete'), '-type', 'f']);
  if (find.lines !== lib.files) throw new Error(`find through the mount saw ${find.lines} of ${lib.files} files`);
  return { startMs, idle, idleCpu, big, season, ls, find };
}

/** The listing rows of the bench's table, each against issue 24's target. */
export function listingRows(l: Listing): Figure[] {
  const mib = (x: Listing['idle']) => `${x.total.toFixed(0)} MiB (${x.anon.toFixed(0)} + ${x.file.toFixed(0)})`;
  return [
    {
      figure: 'start to ready with the library in place',
      value: ms(l.startMs),
      target: 'under 5 s',
      pass: l.startMs < 5000,
    },
    {
      figure: `idle RSS (${IDLE_SECONDS} s after ready): anonymous + LMDB and code pages mapped`,
      value: mib(l.idle),
      target: 'under 300 MB',
      pass: l.idle.total * 1.048576 < 300,
    },
    {
      figure: `PROPFIND Depth 1 of ${l.big.entries}-entry folder, p50 (first ${ms(l.big.first)})`,
      value: ms(l.big.p50),
      target: 'under 150 ms',
      pass: l.big.p50 < 150,
    },
    {
      figure: `PROPFIND Depth 1 of ${l.big.entries}-entry folder, cold (the server's first PROPFIND)`,
      value: ms(l.big.first),
      target: 'under 150 ms',
      pass: l.big.first < 150,
    },
    {
      figure: `PROPFIND Depth 1 of ${l.season.entries}-entry folder, p50 (first ${ms(l.season.first)})`,
      value: ms(l.season.p50),
      target: 'under 5 ms',
      pass: l.season.p50 < 5,
    },
    {
      figure: `FUSE ls -l of the ${l.ls.lines - 1}-entry folder, p50 (first ${ms(l.ls.first)})`,
      value: ms(l.ls.p50),
      target: 'under 300 ms',
      pass: l.ls.p50 < 300,
    },
    {
      figure: `FUSE find over all ${l.find.lines} files`,
      value: `${(l.find.ms / 1000).toFixed(1)} s`,
      target: 'under 10 s',
      pass: l.find.ms < 10_000,
    },
  ];
}
