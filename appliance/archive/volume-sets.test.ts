import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { writeRar4 } from '../../tests/support/archive/rar4-writer.js';
import { writeRar5 } from '../../tests/support/archive/rar5-writer.js';
import { materialize, type WrittenVolume } from '../../tests/support/archive/volumes.js';
import { ArchiveError, type VolumeScan } from './archive.types.js';
import { bufferSource } from './bytes.js';
import { MAX_ARCHIVE_MEMBERS } from './limits.js';
import { assembleMembers } from './members.js';
import { scanRar4Volume } from './rar4.js';
import { scanRar5Volume } from './rar5.js';
import { setsByHeaders } from './volume-sets.js';

// Several archive sets in one NZB under random names (a season pack): volumes are grouped by what their own headers
// say (docs/archives.md, "Sets under obfuscated names"), never merged into one set.

interface Posted {
  volume: WrittenVolume;
  bytes: Buffer;
  episode: number;
  index: number;
}

/** Episodes' volumes, posted in a random order: what an NZB of random names lists. */
function seasonPack(write: (e: number, data: Buffer) => WrittenVolume[], episodes: number): Posted[] {
  const posted: Posted[] = [];
  for (let e = 0; e < episodes; e++) {
    const vols = write(e, randomBytes(600_000 + e * 1_000));
    vols.forEach((volume, index) => posted.push({ volume, bytes: materialize(volume), episode: e, index }));
  }
  return posted.sort(() => Math.random() - 0.5);
}

async function grouped(posted: Posted[], scan: (p: Posted) => Promise<VolumeScan>) {
  const scans = await Promise.all(posted.map(scan));
  const sets = setsByHeaders(
    scans,
    posted.map((p) => p.bytes.length),
  );
  return { scans, sets };
}

describe('archive sets from volume headers', () => {
  it('three RAR5 episodes under random names form three sets, each in volume order', async () => {
    const posted = seasonPack(
      (e, data) =>
        writeRar5(
          [
            { name: `Show.S01E0${e + 1}.nfo`, data: Buffer.from(`episode ${e + 1}\n`) },
            { name: `Show.S01E0${e + 1}.mkv`, data },
          ],
          { volumeSize: 100_000, base: `show.s01e0${e + 1}` },
        ),
      3,
    );
    const { scans, sets } = await grouped(posted, (p) => scanRar5Volume(bufferSource(p.bytes), 'x'));
    assert.equal(sets.length, 3);
    for (const set of sets) {
      const episode = posted[set[0]!]!.episode;
      assert.deepEqual(
        set.map((i) => [posted[i]!.episode, posted[i]!.index]),
        set.map((_, k) => [episode, k]),
      );
      const members = assembleMembers(
        set.map((i) => scans[i]!),
        set.map((i) => String(i)),
      );
      assert.deepEqual(
        members.map((m) => m.name),
        [`Show.S01E0${episode + 1}.nfo`, `Show.S01E0${episode + 1}.mkv`],
      );
    }
  });

  it('RAR 4 episodes under random names: sets from the first-volume flag, end-block numbers and continuations', async () => {
    const posted = seasonPack(
      (e, data) => writeRar4([{ name: `Show.S02E0${e + 1}.mkv`, data }], { volumeSize: 150_000, base: `s02e${e}` }),
      3,
    );
    const { sets } = await grouped(posted, (p) => scanRar4Volume(bufferSource(p.bytes), 'x', true));
    assert.equal(sets.length, 3);
    for (const set of sets) {
      const episode = posted[set[0]!]!.episode;
      assert.deepEqual(
        set.map((i) => [posted[i]!.episode, posted[i]!.index]),
        set.map((_, k) => [episode, k]),
      );
    }
  });

  it('two sets whose volumes end on a member boundary are told apart by volume size and NZB order', async () => {
    // each volume holds whole members: nothing continues, so the numbers and sizes decide
    const write = (tag: string, size: number) =>
      writeRar5(
        Array.from({ length: 3 }, (_, k) => ({ name: `${tag}${k}.bin`, data: randomBytes(size) })),
        { volumeSize: size + 100, base: tag },
      );
    const a = write('a', 20_000);
    const b = write('b', 30_000);
    const posted = [...a, ...b].map((volume) => ({ volume, bytes: materialize(volume) }));
    const scans = await Promise.all(posted.map((p) => scanRar5Volume(bufferSource(p.bytes), p.volume.name)));
    const sets = setsByHeaders(
      scans,
      posted.map((p) => p.bytes.length),
    );
    assert.deepEqual(
      sets.map((s) => s.map((i) => posted[i]!.volume.name)),
      [a.map((v) => v.name), b.map((v) => v.name)],
    );
  });

  it('volumes no set claims (their first volume is missing) stay one set, which fails naming the gap', async () => {
    const vols = writeRar5([{ name: 'x.mkv', data: randomBytes(300_000) }], { volumeSize: 100_000, base: 'x' });
    const scans = await Promise.all(vols.slice(1).map((v) => scanRar5Volume(bufferSource(materialize(v)), v.name)));
    const sets = setsByHeaders(
      scans,
      vols.slice(1).map((v) => v.size),
    );
    assert.deepEqual(sets, [[0, 1, 2].slice(0, scans.length)]);
    assert.throws(
      () =>
        assembleMembers(
          sets[0]!.map((i) => scans[i]!),
          sets[0]!.map((i) => vols[i + 1]!.name),
        ),
      /volume 1 of the archive is not in the NZB/,
    );
  });
});

describe('member cap', () => {
  it(`a volume of more than ${MAX_ARCHIVE_MEMBERS} tiny members fails clearly, naming the count and the cap`, async () => {
    const tiny = Array.from({ length: MAX_ARCHIVE_MEMBERS + 5 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.of(i) }));
    for (const [format, vol] of [
      ['RAR5', writeRar5(tiny, { base: 'tiny' })[0]!],
      ['RAR 4', writeRar4(tiny, { base: 'tiny' })[0]!],
    ] as const) {
      const source = bufferSource(materialize(vol));
      const scan = format === 'RAR5' ? scanRar5Volume(source, 'tiny.rar') : scanRar4Volume(source, 'tiny.rar');
      await assert.rejects(scan, (err: unknown) => {
        assert.ok(err instanceof ArchiveError);
        assert.equal(err.code, 'ARCHIVE_UNSUPPORTED');
        assert.match(
          err.message,
          new RegExp(
            `^tiny.rar: more than ${MAX_ARCHIVE_MEMBERS} files \\(stopped at file header ${MAX_ARCHIVE_MEMBERS + 1}\\); Spool exposes at most ${MAX_ARCHIVE_MEMBERS} files`,
          ),
        );
        return true;
      });
    }
  });
});
