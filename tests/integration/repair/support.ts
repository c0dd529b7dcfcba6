import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildNzb, type PostedFile } from '../../support/inn/poster.js';
import type { InnServer } from '../../support/inn/server.js';
import type { FakeArr } from '../../support/fake-arr/server.js';
import { fakeArrInstance } from '../../support/fake-arr/fixtures.js';
import type { HealthJson } from '../health/support.js';
import { api, davList, innProvider, upload, waitForItem } from '../import/support.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

/** Where the fake Radarr keeps its movies. */
export const ROOT = '/data/spool';

/** A health record as the repair tests read it. */
export type Par2Record = HealthJson & { repaired_from: 'par2' | null };

/**
 * The server settings of the repair tests: INN as the provider, every article checked, automatic repairs at once
 * (PAR2 first, then the fake Radarr), no scheduled checks (the tests ask for them).
 */
export function repairTestConfig(inn: InnServer, radarr: FakeArr, extra: Record<string, unknown> = {}) {
  return {
    providers: [innProvider(inn)],
    health: {
      enabled: true,
      auto_repair_enabled: true,
      check_interval_seconds: 86_400,
      max_retries: 1,
      check_all_segments: true,
      repair_delay_minutes: 0,
    },
    arrs: { enabled: true, radarr_instances: [fakeArrInstance(radarr, { root_folder: ROOT })] },
    ...extra,
  };
}

/** PAR2 slices of 5,000 bytes: an article of 20,000 bytes holds exactly four of them. */
export const SLICE = 5_000;
export const ARTICLE = 20_000;

export interface Release {
  /** The media file's bytes. */
  bytes: Buffer;
  media: PostedFile;
  par2: PostedFile[];
  nzbXml: string;
  /** Recovery slices the set carries. */
  recoverySlices: number;
  /** Each .par2 file's bytes as posted, by the name par2 gave it (to run `par2 repair` on the same damage). */
  par2Bytes: Map<string, Buffer>;
}

/**
 * A release as posted: one media file of `size` bytes and the .par2 files Debian's `par2 create -r<redundancy>`
 * made for it, all posted to INN; `obfuscated` posts every file under a random name (the real names are only in
 * the PAR2 packets).
 */
export async function postRelease(
  inn: InnServer,
  name: string,
  size: number,
  redundancy: number,
  obfuscated = false,
  /** Changes a .par2 file's bytes before it is posted (hostile packets). */
  mangle: (file: string, bytes: Buffer) => Buffer = (_, b) => b,
  /** More `par2 create` options, e.g. `-n1` for one recovery volume. */
  par2Options: string[] = [],
): Promise<Release> {
  const dir = mkdtempSync(join(tmpdir(), 'spool-par2-release-'));
  try {
    const bytes = film(size, name);
    writeFileSync(join(dir, name), bytes);
    execFileSync(
      'par2',
      ['create', '-q', '-q', `-s${SLICE}`, `-r${redundancy}`, ...par2Options, `${name}.par2`, name],
      {
        cwd: dir,
      },
    );
    const posted = (file: string) => (obfuscated ? randomBytes(12).toString('hex') : file);
    const media = await inn.postFile(posted(name), bytes, { articleSize: ARTICLE });
    const par2: PostedFile[] = [];
    const par2Bytes = new Map<string, Buffer>();
    let recoverySlices = 0;
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.par2'))) {
      recoverySlices += Number(/\+(\d+)\.par2$/.exec(f)?.[1] ?? 0);
      par2Bytes.set(f, mangle(f, readFileSync(join(dir, f))));
      par2.push(await inn.postFile(posted(f), par2Bytes.get(f)!, { articleSize: ARTICLE }));
    }
    const nzbXml = buildNzb([media, ...par2], inn.group, 'poster@spool.test');
    return { bytes, media, par2, nzbXml, recoverySlices, par2Bytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Imports the release through the upload route; answers the queue item and the media file's path in the tree. */
export async function importRelease(baseUrl: string, release: Release, job: string, fileName: string) {
  const up = await upload(baseUrl, `${job}.nzb`, release.nzbXml, { category: 'movies' });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.deepEqual(await davList(baseUrl, item.target_path!), [fileName], 'PAR2 files stay out of the tree');
  return { item, path: `${item.target_path}/${fileName}` };
}

/** Polls the health record until `done` says so (tests/support/wait.ts). */
export async function waitForRecord<T extends { status: string }>(
  baseUrl: string,
  path: string,
  done: (r: T) => boolean,
): Promise<T> {
  let last: unknown;
  return waitUntil(
    () => `health record of ${path}: ${JSON.stringify(last)}`,
    async () => {
      const res = await api<T>(baseUrl, `/api/health/${encodeURIComponent(path)}`);
      last = res.body;
      // A record in the middle of a check is not an answer: a check the schedule starts right after a repair shows
      // 'checking' with the repair's fields still on it (a CI run beside stress-ng read one).
      const r = res.body.data;
      return r && r.status !== 'checking' && done(r) ? r : undefined;
    },
  );
}
