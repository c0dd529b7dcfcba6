/**
 * Spool's side of the PAR2 bench, alone in its own process so its peak RSS (VmHWM) is the repair's: everything is
 * read from the bench INN (the index volume, the recovery slices' headers and strips, every input slice), the
 * damaged slices are found by their PAR2 checksums (a 430 reads as a damaged slice), then the server's solver
 * (appliance/repair/par2-solver.ts: the streaming solve, its multiply-adds in a worker thread) rebuilds them into a
 * local file. argv[2]: JSON {inn, fixture, out, memoryBytes}. Prints a JSON result line.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { locateRecoverySlices } from '../../appliance/par2/locate.js';
import { readPar2Set } from '../../appliance/par2/set.js';
import { sliceMatches } from '../../appliance/par2/solve.js';
import { stripBytes } from '../../appliance/par2/stream-solve.js';
import { solveStreaming } from '../../appliance/repair/par2-solver.js';
import { gf16Backend } from '../../appliance/par2/gf16-native.js';
import { NntpConnection } from '../../appliance/nntp/connection.js';
import { InnRangeReader, type PostedFileLite } from './inn-range-reader.js';
import type { Par2Fixture } from './par2-fixture.js';

interface Args {
  inn: { host: string; port: number; username: string; password: string };
  fixture: string;
  out: string;
  memoryBytes: number;
  connections: number;
}

const args = JSON.parse(process.argv[2]!) as Args;
const f = JSON.parse(readFileSync(args.fixture, 'utf8')) as Par2Fixture;
const vmHwmMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const baselineMb = vmHwmMb();
const conns = await Promise.all(
  Array.from({ length: args.connections }, () => NntpConnection.open({ ...args.inn, tls: false, insecureTls: false })),
);
const reader = new InnRangeReader(conns);
const t0 = performance.now();

const [indexVolume, ...recoveryVolumes] = f.volumes;
const index = await reader.read(indexVolume!, 0, indexVolume!.size);
if (!index) throw new Error('the index volume is missing from INN');
const set = readPar2Set([index]);
const recovery = new Map<number, { volume: PostedFileLite; dataOffset: number }>();
for (const volume of recoveryVolumes) {
  const read = (offset: number, length: number) => reader.read(volume, offset, length);
  for (const at of await locateRecoverySlices(read, volume.size, set.setId, set.sliceSize))
    recovery.set(at.exponent, { volume, dataOffset: at.dataOffset });
}
const byName = new Map(f.files.map((x) => [x.name, x]));
const whereIs = (i: number) => {
  const file = set.files.find((x) => i >= x.firstSlice && i < x.firstSlice + x.sliceCount)!;
  return { posted: byName.get(file.name)!, at: (i - file.firstSlice) * set.sliceSize };
};
const readInput = (i: number, offset: number, length: number) => {
  const { posted, at } = whereIs(i);
  return reader.read(posted, at + offset, Math.min(length, set.sliceSize - offset));
};

// find the damage: every input slice read once, eight at a time, and checked against its MD5 and CRC32
const damaged: number[] = [];
for (let from = 0; from < set.checksums.length; from += 8) {
  const batch = Array.from({ length: Math.min(8, set.checksums.length - from) }, (_, n) => from + n);
  const slices = await Promise.all(batch.map((i) => readInput(i, 0, set.sliceSize)));
  batch.forEach((i, n) => {
    if (!slices[n] || !sliceMatches(set, i, slices[n])) damaged.push(i);
  });
}
const findMs = performance.now() - t0;
const findFetched = reader.fetchedBytes;
const findVmHwmMb = vmHwmMb();

const fd = openSync(args.out, 'w');
// the server's solver (appliance/repair/par2-solver.ts): the multiply-adds in its worker thread
await solveStreaming(
  set,
  [...recovery.keys()],
  damaged,
  {
    readInput,
    readRecovery: async (e, offset, length) => {
      const r = recovery.get(e)!;
      return reader.read(r.volume, r.dataOffset + offset, length);
    },
  },
  (i, offset, bytes) => {
    writeSync(fd, bytes, 0, bytes.length, damaged.indexOf(i) * set.sliceSize + offset);
  },
  args.memoryBytes,
);
closeSync(fd);
const totalMs = performance.now() - t0;
await Promise.all(conns.map((c) => c.quit()));
console.log(
  JSON.stringify({
    damaged,
    findMs,
    solveMs: totalMs - findMs,
    totalMs,
    baselineMb,
    findVmHwmMb,
    vmHwmMb: vmHwmMb(),
    findFetchedMb: findFetched / 2 ** 20,
    solveFetchedMb: (reader.fetchedBytes - findFetched) / 2 ** 20,
    strip: stripBytes(set.sliceSize, damaged.length, { memoryBytes: args.memoryBytes }),
    backend: gf16Backend,
  }),
);
