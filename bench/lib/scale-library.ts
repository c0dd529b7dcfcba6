/**
 * The scale bench's library (bench/scale.bench.ts): jobs written through the real app (createApp in this process,
 * `streaming.vfs.addJob`, so layouts, nodes and health records are stored exactly as an import stores them) with
 * message ids the pattern server answers (pattern-nntp.ts). Nothing is posted; reads later fetch real articles.
 *
 * Shapes as the arrs make them: `movies` holds one job folder per movie (the category of 10,000 job folders at
 * 100,000 files), each a movie, its sample and its .nfo; `tv` holds season folders of 30 episodes. Article counts
 * follow real posts of 768,000-byte articles: movies 2,000-10,000 articles (one in fifty a 50,000-60,000-article
 * remux), episodes 1,000-4,000, samples 50-200, an .nfo one; `articleFactor` scales every count but the .nfo's
 * (1 = real sizes).
 */
import { createApp, type SpoolApp } from '../../appliance/app/create-app.js';
import { createLogger } from '../../appliance/logging/logger.js';
import type { AddJobFile, AddJobInput } from '../../appliance/vfs/types.js';
import { PATTERN_ARTICLE, patternId } from './pattern-nntp.js';

export interface LibraryPlan {
  files: number;
  articleFactor: number;
  /** Deterministic: the same seed builds the same library. */
  seed: number;
}

export interface LibraryFacts {
  files: number;
  jobs: number;
  articles: number;
  /** What the NZBs of these files would weigh (the `<file>`/`<segment>` XML an indexer serves), in bytes. */
  nzbBytes: number;
  /** The category folder of one job per movie, and one season folder. */
  bigFolder: string;
  bigFolderEntries: number;
  seasonFolder: string;
  /** A file to read through the pool, and its size. */
  sampleFile: string;
  buildSeconds: number;
}

const NZB_FILE_OVERHEAD = 330; // <file poster date subject> + <groups> + closing tags, as indexers write them

/** Writes the library into the app's data dir (the app must be configured; it is left running for the caller). */
export async function buildLibrary(app: SpoolApp, plan: LibraryPlan, log: (m: string) => void): Promise<LibraryFacts> {
  const rand = xorshift(plan.seed);
  const started = Date.now();
  const movieJobs = Math.max(1, Math.round(plan.files / 10));
  const tvFiles = Math.max(0, plan.files - movieJobs * 3);
  const facts = { files: 0, jobs: 0, articles: 0, nzbBytes: 0 };
  const scaled = (lo: number, hi: number) => Math.max(1, Math.round((lo + rand() * (hi - lo)) * plan.articleFactor));
  const file = (name: string, articles: number): AddJobFile => {
    facts.files++;
    facts.articles += articles;
    let nzb = NZB_FILE_OVERHEAD + name.length;
    const segments = Array.from({ length: articles }, (_, i) => {
      const messageId = patternId(i + 1, articles, randomText(rand, 16));
      const bytes = 790_000 + (i % 4000);
      nzb += 40 + messageId.length + String(i + 1).length + String(bytes).length;
      return { messageId, start: i * PATTERN_ARTICLE, end: (i + 1) * PATTERN_ARTICLE, number: i + 1, bytes, post: 0 };
    });
    facts.nzbBytes += nzb;
    const post = { poster: 'scale <scale@spool>', date: 1767225600, subject: `"${name}" yEnc`, groups: ['alt.bin'] };
    const size = articles * PATTERN_ARTICLE;
    return { name, size, layout: () => ({ size, segments, groups: post.groups, posts: [post] }) };
  };
  const writer = concurrentJobs(app, 64);
  let lastLog = Date.now();
  const progress = () => {
    if (Date.now() - lastLog < 10_000) return;
    lastLog = Date.now();
    log(`${facts.files} files in ${facts.jobs} jobs (${facts.articles} articles) after ${secondsSince(started)} s`);
  };
  for (let j = 0; j < movieJobs; j++) {
    const title = `Movie.${String(j).padStart(6, '0')}.2024.1080p.BluRay.x264-SCALE`;
    const remux = rand() < 0.02;
    const files = [
      file(`${title}.mkv`, remux ? scaled(50_000, 60_000) : scaled(2_000, 10_000)),
      file(`${title}.sample.mkv`, scaled(50, 200)),
      file(`${title}.nfo`, 1),
    ];
    await writer.add({ category: 'movies', jobName: title, files });
    facts.jobs++;
    progress();
  }
  let season = 0;
  for (let left = tvFiles; left > 0; season++) {
    const count = Math.min(30, left);
    left -= count;
    const show = `Show.${String(Math.floor(season / 10)).padStart(5, '0')}`;
    const job = `${show}.S${String((season % 10) + 1).padStart(2, '0')}.1080p.WEB-DL-SCALE`;
    const files = Array.from({ length: count }, (_, e) =>
      file(`${job.replace('.S', `.E${String(e + 1).padStart(2, '0')}.S`)}.mkv`, scaled(1_000, 4_000)),
    );
    await writer.add({ category: 'tv', jobName: job, files });
    facts.jobs++;
    progress();
  }
  await writer.drain();
  // Every file's health record written before the app stops (its tree events are applied one after another).
  await app.health.service.reconcile();
  const firstSeason = `/complete/tv/Show.00000.S01.1080p.WEB-DL-SCALE`;
  return {
    ...facts,
    bigFolder: '/complete/movies',
    bigFolderEntries: movieJobs,
    seasonFolder: tvFiles > 0 ? firstSeason : '/complete/movies',
    sampleFile: `/complete/movies/Movie.000000.2024.1080p.BluRay.x264-SCALE/Movie.000000.2024.1080p.BluRay.x264-SCALE.mkv`,
    buildSeconds: secondsSince(started),
  };
}

/** The app on `dataDir` (config.yaml already written there), quiet. */
export function openLibraryApp(dataDir: string): Promise<SpoolApp> {
  return createApp({ dataDir, logger: createLogger('scale-build', 'warn') });
}

/**
 * addJob `limit` jobs at a time: lmdb commits the writes of jobs in flight together, where one job after another
 * would wait for a synced commit per layout.
 */
function concurrentJobs(
  app: SpoolApp,
  limit: number,
): { add(job: AddJobInput): Promise<void>; drain(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  let failure: unknown;
  return {
    async add(job) {
      if (failure) throw failure;
      const p = app.streaming.vfs.addJob(job).catch((err: unknown) => (failure = err));
      running.add(p);
      void p.finally(() => running.delete(p));
      if (running.size >= limit) await Promise.race(running);
    },
    async drain() {
      await Promise.all(running);
      if (failure) throw failure;
    },
  };
}

function secondsSince(t: number): number {
  return Math.round((Date.now() - t) / 100) / 10;
}

function xorshift(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random letters and digits, as posters put in message ids. */
function randomText(rand: () => number, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += ALPHABET[Math.floor(rand() * 62)];
  return out;
}
