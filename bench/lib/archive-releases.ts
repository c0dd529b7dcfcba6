/**
 * Big archive releases for the import-memory bench, posted to the local INN: a film in 500 RAR5 volumes (named
 * `.partNNN.rar`), and a season pack of 24 RAR5 sets (one episode each) under random subjects and yEnc names, as
 * season packs are posted. Members are sparse in the writer (tests/support/archive): each volume is posted as random
 * bytes with the real headers laid over them, so a 500 MB release never sits in memory at once (the import reads
 * only headers; the data's CRC is not checked at import).
 */
import { randomBytes } from 'node:crypto';
import { writeRar5 } from '../../tests/support/archive/rar5-writer.js';
import type { WrittenVolume } from '../../tests/support/archive/volumes.js';
import { buildNzb, type PostedFile } from '../../tests/support/inn/poster.js';
import type { InnServer } from '../../tests/support/inn/server.js';

const POSTER = 'Spool Bench <bench@spool.test>';

export interface PostedRelease {
  nzb: string;
  volumes: number;
  sets: number;
  bytes: number;
  /** Files the job should expose. */
  files: number;
}

/** A volume's bytes: its headers where the writer put them, random bytes where a sparse member's data lies. */
function volumeBytes(v: WrittenVolume): Buffer {
  const out = randomBytes(v.size);
  for (const c of v.chunks) c.bytes.copy(out, c.offset);
  return out;
}

async function post(inn: InnServer, vols: WrittenVolume[], obfuscate: boolean): Promise<PostedFile[]> {
  const out: PostedFile[] = new Array(vols.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < vols.length; i = next++) {
      const name = obfuscate ? randomBytes(16).toString('hex') : vols[i]!.name;
      out[i] = await inn.postFile(name, volumeBytes(vols[i]!), { connections: 2 });
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return out;
}

/** One film in at least `volumes` RAR5 volumes of `volumeSize` bytes. */
export async function postFilm(inn: InnServer, volumes: number, volumeSize: number): Promise<PostedRelease> {
  const size = volumes * (volumeSize - 200);
  const vols = writeRar5([{ name: 'Big.Film.2024.2160p.mkv', data: { size } }], { volumeSize, base: 'big.film.2024' });
  const posted = await post(inn, vols, false);
  const bytes = vols.reduce((s, v) => s + v.size, 0);
  return { nzb: buildNzb(posted, inn.group, POSTER), volumes: vols.length, sets: 1, bytes, files: 1 };
}

/** `sets` episodes, each a RAR5 set of `volumesPerSet` volumes, all under random names, listed shuffled. */
export async function postSeasonPack(
  inn: InnServer,
  sets: number,
  volumesPerSet: number,
  volumeSize: number,
): Promise<PostedRelease> {
  const all: WrittenVolume[] = [];
  for (let e = 1; e <= sets; e++) {
    const name = `Big.Show.S01E${String(e).padStart(2, '0')}.1080p.mkv`;
    const size = volumesPerSet * (volumeSize - 200) - 1000 * e;
    all.push(...writeRar5([{ name, data: { size } }], { volumeSize, base: `big.show.s01e${e}` }));
  }
  const posted = await post(inn, all, true);
  const shuffled = posted.map((p) => ({ p, r: Math.random() })).sort((a, b) => a.r - b.r);
  const bytes = all.reduce((s, v) => s + v.size, 0);
  return {
    nzb: buildNzb(
      shuffled.map((x) => x.p),
      inn.group,
      POSTER,
    ),
    volumes: all.length,
    sets,
    bytes,
    files: sets,
  };
}
