import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { writeRar4 } from '../../support/archive/rar4-writer.js';
import { writeRar5 } from '../../support/archive/rar5-writer.js';
import type { PostedFile } from '../../support/inn/poster.js';
import { davGet, davList, importServerOverInn, sha256 } from '../import/support.js';
import { davRange, importNzb, postVolumes, rangesAround } from './support.js';
import { film } from '../../support/media/film.js';

// Season packs: several archive sets in one NZB, every volume under a random subject and a random yEnc name and no
// PAR2 to name them. The volumes are grouped into sets by what their own headers say (docs/archives.md, "Sets
// under obfuscated names"), imported by the real server from a real INN and read back byte-exact over WebDAV.

const env = importServerOverInn();
const dir = mkdtempSync(join(tmpdir(), 'spool-season-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const shuffle = <T>(xs: T[]) => [...xs].sort(() => Math.random() - 0.5);

async function checkEpisodes(target: string, episodes: Map<string, Buffer>): Promise<void> {
  assert.deepEqual((await davList(env.srv.baseUrl, target)).sort(), [...episodes.keys()].sort());
  for (const [name, data] of episodes) {
    assert.equal(sha256((await davGet(env.srv.baseUrl, `${target}/${name}`)).body), sha256(data), name);
    for (const [a, b] of rangesAround(data.length, [100_000, 200_000], 4)) {
      assert.deepEqual(await davRange(env.srv.baseUrl, `${target}/${name}`, a, b), data.subarray(a, b));
    }
  }
}

test('three RAR5 episodes under random names in one NZB import as three files, byte-exact', async () => {
  const episodes = new Map<string, Buffer>();
  const posted: PostedFile[] = [];
  for (let e = 1; e <= 3; e++) {
    const name = `Pack.Show.S01E0${e}.1080p.mkv`;
    const data = film(500_000 + e * 7_000);
    episodes.set(name, data);
    const vols = writeRar5([{ name, data }], { volumeSize: 120_000, base: `pack.show.s01e0${e}` });
    posted.push(...(await postVolumes(env.inn, vols, { obfuscate: true, articleSize: 50_000 })));
  }
  const item = await importNzb(env.srv.baseUrl, env.inn, 'Pack.Show.S01.nzb', shuffle(posted), { category: 'tv' });
  assert.equal(item.status, 'completed', item.error_message ?? '');
  await checkEpisodes(item.target_path!, episodes);
});

test('RAR 4 episodes under random names in one NZB: sets from their headers, byte-exact', async () => {
  const episodes = new Map<string, Buffer>();
  const posted: PostedFile[] = [];
  for (let e = 1; e <= 3; e++) {
    const name = `Pack.Old.S02E0${e}.mkv`;
    const data = film(400_000 + e * 5_000);
    episodes.set(name, data);
    const vols = writeRar4([{ name, data }], { volumeSize: 150_000, base: `pack.old.s02e0${e}`, scheme: 'old' });
    posted.push(...(await postVolumes(env.inn, vols, { obfuscate: true, articleSize: 50_000 })));
  }
  const item = await importNzb(env.srv.baseUrl, env.inn, 'Pack.Old.S02.nzb', shuffle(posted), { category: 'tv' });
  assert.equal(item.status, 'completed', item.error_message ?? '');
  await checkEpisodes(item.target_path!, episodes);
});

test('three 7z episodes (7zz, copy method) under random names in one NZB import as three files', async () => {
  const episodes = new Map<string, Buffer>();
  const posted: PostedFile[] = [];
  for (let e = 1; e <= 3; e++) {
    const name = `Pack.Seven.S03E0${e}.mkv`;
    const data = film(300_000 + e * 3_000);
    episodes.set(name, data);
    const d = join(dir, `e${e}`);
    mkdirSync(join(d, 'in'), { recursive: true });
    writeFileSync(join(d, 'in', name), data);
    execFileSync('7zz', ['a', '-bd', '-mx0', join(d, 'e.7z'), name], { cwd: join(d, 'in'), stdio: 'ignore' });
    const bytes = readFileSync(join(d, 'e.7z'));
    posted.push(await env.inn.postFile(randomBytes(16).toString('hex'), bytes, { articleSize: 60_000 }));
  }
  const item = await importNzb(env.srv.baseUrl, env.inn, 'Pack.Seven.S03.nzb', shuffle(posted), { category: 'tv' });
  assert.equal(item.status, 'completed', item.error_message ?? '');
  await checkEpisodes(item.target_path!, episodes);
});
