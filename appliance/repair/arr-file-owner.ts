import { posix } from 'node:path';
import type { ArrClient } from '../arrs/arr.client.js';
import {
  historyData,
  isGrab,
  isImport,
  type EpisodeFile,
  type HistoryRecord,
  type MovieFile,
} from '../arrs/arr-v3.types.js';
import { droppedIsFile, recordIsFile, type FileTarget, type FileView } from './arr-file-target.js';

/** The arr record of the broken file in one instance. */
export interface FileOwner {
  /** Radarr movie id or Sonarr series id. */
  itemId: number;
  /** The moviefile or episodefile id. */
  fileId: number;
  /** Sonarr: the episodes in that file (what to search for). */
  episodeIds: number[];
  /** The "grabbed" history record of the download that brought the file, when known (to blocklist it). */
  grabId?: number;
  how: 'import' | 'path' | 'grab';
}

export interface OwnerQuery {
  target: FileTarget;
  downloadId?: string;
  /** Size of the broken file in bytes, when the caller knows it (tightens the match by release name). */
  size?: number;
  files: FileView;
}

type AnyFile = MovieFile | EpisodeFile;

const SERIES_AT_ONCE = 4;

/**
 * Finds the file record in one instance (docs/arrs.md): (a) through the download id's history, the import that
 * took this very file and the record it created, else the grab's item; (b) through the release name the arr
 * parses, then (c) by walking the library. Throws ArrError when the arr cannot be asked.
 */
export async function findOwner(client: ArrClient, q: OwnerQuery): Promise<FileOwner | undefined> {
  if (q.downloadId) {
    const history = await client.downloadHistory(q.downloadId);
    const grabs = history.filter(isGrab);
    const owner = (await byImport(client, q, history.filter(isImport), grabs)) ?? (await byGrab(client, q, grabs));
    if (owner) return owner;
  }
  if (q.target.jobName) {
    const parsed = await client.parse(q.target.jobName);
    const itemId = client.type === 'radarr' ? parsed.movie?.id : parsed.series?.id;
    if (itemId !== undefined) {
      const owner = await inItem(client, q, itemId);
      if (owner) return owner;
    }
  }
  return byLibrary(client, q);
}

const filesOf = (client: ArrClient, itemId: number): Promise<AnyFile[]> =>
  client.type === 'radarr' ? client.movieFiles(itemId) : client.episodeFiles(itemId);

const itemOf = (f: AnyFile) => ('movieId' in f ? f.movieId : f.seriesId);

async function owner(client: ArrClient, file: AnyFile, how: FileOwner['how'], grabId?: number): Promise<FileOwner> {
  const episodeIds = client.type === 'sonarr' ? (await client.episodesOfFile(file.id)).map((e) => e.id) : [];
  return { itemId: itemOf(file), fileId: file.id, episodeIds, grabId, how };
}

async function matching(files: AnyFile[], q: OwnerQuery): Promise<AnyFile | undefined> {
  for (const f of files) if (typeof f.path === 'string' && (await recordIsFile(f.path, q.target, q.files))) return f;
  return undefined;
}

async function inItem(client: ArrClient, q: OwnerQuery, itemId: number): Promise<FileOwner | undefined> {
  const f = await matching(await filesOf(client, itemId), q);
  return f && owner(client, f, 'path');
}

const itemOfRecord = (client: ArrClient, r: HistoryRecord) => (client.type === 'radarr' ? r.movieId : r.seriesId);

/**
 * The arr's import of this download wrote which file it took (`droppedPath`: this file's entry in the job folder)
 * and the record it made of it (`fileId`). That record is the broken file wherever the arr renamed or moved it
 * since, as long as it still exists: a later upgrade made a new record, which is never touched.
 */
async function byImport(
  client: ArrClient,
  q: OwnerQuery,
  imports: HistoryRecord[],
  grabs: HistoryRecord[],
): Promise<FileOwner | undefined> {
  const ours = imports.filter((r) => droppedIsFile(historyData(r, 'droppedPath') ?? '', q.target));
  const seen = new Set<string>();
  for (const r of ours) {
    const itemId = itemOfRecord(client, r);
    const fileId = Number(historyData(r, 'fileId'));
    if (itemId === undefined || !Number.isInteger(fileId) || seen.has(`${itemId}/${fileId}`)) continue;
    seen.add(`${itemId}/${fileId}`);
    const file = (await filesOf(client, itemId)).find((f) => f.id === fileId);
    if (!file) continue; // replaced or deleted since: nothing of this download left to repair there
    const grab = grabs.find((g) => itemOfRecord(client, g) === itemId);
    return owner(client, file, 'import', grab?.id);
  }
  return undefined;
}

/**
 * The grab names the movie or the series (and episode). A file of that item is ours when its path leads to the
 * broken file; when Spool cannot see the arr's library, when it is the only file of that item imported under the
 * release name of this download with the same extension (and size, when known).
 */
async function byGrab(client: ArrClient, q: OwnerQuery, grabs: HistoryRecord[]): Promise<FileOwner | undefined> {
  const items = [...new Set(grabs.map((g) => (client.type === 'radarr' ? g.movieId : g.seriesId)))];
  for (const itemId of items) {
    if (itemId === undefined) continue;
    const files = await filesOf(client, itemId);
    const grabFor = (f: AnyFile) =>
      grabs.find((g) => (client.type === 'radarr' ? g.movieId : g.seriesId) === itemOf(f));
    const byPath = await matching(files, q);
    if (byPath) return owner(client, byPath, 'path', grabFor(byPath)?.id);
    const titles = new Set(grabs.map((g) => g.sourceTitle).concat(q.target.jobName));
    const named = files.filter(
      (f) =>
        !!f.sceneName &&
        titles.has(f.sceneName) &&
        posix.extname(f.path ?? '').toLowerCase() === q.target.extension &&
        (q.size === undefined || f.size === q.size),
    );
    if (named.length !== 1) continue; // none, or a pack whose files share the name: not provably ours
    const found = await owner(client, named[0]!, 'grab', grabFor(named[0]!)?.id);
    // Sonarr: the file must hold an episode this download grabbed.
    const grabbed = new Set(grabs.map((g) => g.episodeId).filter((e) => e !== undefined));
    if (client.type === 'sonarr' && !found.episodeIds.some((e) => grabbed.has(e))) continue;
    return found;
  }
  return undefined;
}

async function byLibrary(client: ArrClient, q: OwnerQuery): Promise<FileOwner | undefined> {
  if (client.type === 'radarr') {
    const files = (await client.movies()).flatMap((m) => (m.movieFile ? [m.movieFile] : []));
    const f = await matching(files, q);
    return f && owner(client, f, 'path');
  }
  // One request per series: a few at a time, so a big library is walked in reasonable time without a burst.
  const series = await client.series();
  for (let i = 0; i < series.length; i += SERIES_AT_ONCE) {
    const found = await Promise.all(series.slice(i, i + SERIES_AT_ONCE).map((s) => inItem(client, q, s.id)));
    const hit = found.find((o) => o !== undefined);
    if (hit) return hit;
  }
  return undefined;
}
