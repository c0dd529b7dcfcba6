/**
 * The v3 routes the fake arr answers, as Radarr and Sonarr answer them (docs/arrs.md). Anything else is a 404 and
 * recorded as unexpected by the server.
 */
import type { ArrType } from '../../../appliance/arrs/arrs.wire.js';
import type { FakeLibrary, ReceivedCommand } from './library.js';

export interface RouteRequest {
  method: string;
  /** Lower-cased path after /api/v3/ (the arrs match routes case-insensitively). */
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface RouteAnswer {
  status: number;
  body?: unknown;
}

export interface RouteContext {
  type: ArrType;
  lib: FakeLibrary;
  appName: string;
  version: string;
  rootFolders: string[];
  /** The arr's failsafe: DELETE of a file answers 409 while its root folder is missing or empty. */
  rootFolderMissing: boolean;
  autoRedownloadFailed: boolean;
  urlBase: string;
  /** What GET health answers (the arr's own checks, e.g. a RemotePathMappingCheck warning); empty by default. */
  health: Array<{ source: string; type: string; message: string; wikiUrl?: string }>;
}

const ok = (body: unknown = {}): RouteAnswer => ({ status: 200, body });
const notFound: RouteAnswer = { status: 404, body: { message: 'NotFound' } };
const num = (v: string | null | undefined) => (v && /^\d+$/.test(v) ? Number(v) : undefined);

/** Returns undefined for a route the fake does not implement. */
export async function answer(ctx: RouteContext, req: RouteRequest): Promise<RouteAnswer | undefined> {
  const { lib } = ctx;
  // 'history/failed/7' -> key 'POST history/failed/:id', id '7'
  const parts = req.path.split('/');
  const id = parts.find((p) => num(p) !== undefined);
  const key = `${req.method} ${parts.map((p) => (num(p) !== undefined ? ':id' : p)).join('/')}`;
  const movies = ctx.type === 'radarr';
  switch (key) {
    case 'GET system/status':
      return ok({ appName: ctx.appName, version: ctx.version, instanceName: ctx.appName, urlBase: ctx.urlBase });
    case 'GET health':
      return ok(ctx.health);
    case 'GET rootfolder':
      return ok(ctx.rootFolders.map((path, i) => ({ id: i + 1, path, accessible: !ctx.rootFolderMissing })));
    case 'GET config/downloadclient':
      return ok({ id: 1, enableCompletedDownloadHandling: true, autoRedownloadFailed: ctx.autoRedownloadFailed });
    case 'GET parse':
      return ok(parse(ctx, req.query.get('title') ?? ''));
    case 'GET history':
      return ok(historyPage(lib, req.query));
    case 'POST history/failed/:id':
      return markFailed(ctx, Number(id));
    case 'POST command':
      return { status: 201, body: strip(lib.queueCommand(req.body as Record<string, unknown>, 'api')) };
    case 'GET command/:id': {
      const cmd = lib.commands.find((c) => c.id === Number(id));
      return cmd ? ok(strip(cmd)) : notFound;
    }
  }
  if (movies) return movieRoute(ctx, key, req, num(id));
  return seriesRoute(ctx, key, req, num(id));
}

async function movieRoute(ctx: RouteContext, key: string, req: RouteRequest, id?: number) {
  const { lib } = ctx;
  switch (key) {
    case 'GET movie': {
      const tmdb = num(req.query.get('tmdbId'));
      const all = [...lib.movies.values()].filter((m) => tmdb === undefined || m.tmdbId === tmdb);
      return ok(all.map((m) => lib.movieView(m)));
    }
    case 'GET movie/:id': {
      const m = lib.movies.get(id!);
      return m ? ok(lib.movieView(m)) : notFound;
    }
    case 'GET moviefile': {
      const movieId = num(req.query.get('movieId'));
      if (movieId === undefined) return { status: 400, body: { message: 'movieId or movieFileIds must be provided' } };
      return ok([...lib.movieFiles.values()].filter((f) => f.movieId === movieId));
    }
    case 'GET moviefile/:id': {
      const f = lib.movieFiles.get(id!);
      return f ? ok(f) : notFound;
    }
    case 'PUT moviefile/bulk':
      return bulkQuality(req.body, (fid) => lib.movieFiles.get(fid));
    case 'DELETE moviefile/:id': {
      const f = lib.movieFiles.get(id!);
      if (!f) return notFound;
      if (ctx.rootFolderMissing) return rootFolderConflict();
      await lib.removeFromDisk(f.path);
      lib.movieFiles.delete(f.id);
      return ok();
    }
  }
  return undefined;
}

async function seriesRoute(ctx: RouteContext, key: string, req: RouteRequest, id?: number) {
  const { lib } = ctx;
  switch (key) {
    case 'GET series':
      return ok([...lib.series.values()]);
    case 'GET series/:id': {
      const s = lib.series.get(id!);
      return s ? ok(s) : notFound;
    }
    case 'GET episodefile': {
      const seriesId = num(req.query.get('seriesId'));
      if (seriesId === undefined)
        return { status: 400, body: { message: 'seriesId or episodeFileIds must be provided' } };
      return ok([...lib.episodeFiles.values()].filter((f) => f.seriesId === seriesId));
    }
    case 'GET episode': {
      const fileId = num(req.query.get('episodeFileId'));
      const seriesId = num(req.query.get('seriesId'));
      if (fileId === undefined && seriesId === undefined)
        return { status: 400, body: { message: 'seriesId required' } };
      const all = [...lib.episodes.values()].filter(
        (e) =>
          (fileId === undefined || e.episodeFileId === fileId) && (seriesId === undefined || e.seriesId === seriesId),
      );
      return ok(all.map((e) => ({ ...e, hasFile: !!e.episodeFileId })));
    }
    case 'PUT episodefile/bulk':
      return bulkQuality(req.body, (fid) => lib.episodeFiles.get(fid));
    case 'DELETE episodefile/:id': {
      const f = lib.episodeFiles.get(id!);
      if (!f) return notFound;
      if (ctx.rootFolderMissing) return rootFolderConflict();
      await lib.removeFromDisk(f.path);
      lib.episodeFiles.delete(f.id);
      for (const e of lib.episodes.values()) if (e.episodeFileId === f.id) e.episodeFileId = 0;
      return ok();
    }
  }
  return undefined;
}

/**
 * PUT moviefile/bulk and episodefile/bulk (the file editors' replacement): an array of `{id, quality, …}`; only the
 * database rows change, never the files. An id the arr does not have answers 404, as its lookup does.
 */
function bulkQuality(body: unknown, file: (id: number) => { quality?: unknown } | undefined): RouteAnswer {
  if (!Array.isArray(body)) return { status: 400, body: { message: 'an array of files is required' } };
  const edits = body as { id?: number; quality?: unknown }[];
  if (edits.some((e) => typeof e.id !== 'number' || !file(e.id))) return notFound;
  for (const e of edits) if (e.quality) file(e.id!)!.quality = e.quality;
  return { status: 202, body: edits.map((e) => file(e.id!)) };
}

function rootFolderConflict(): RouteAnswer {
  return { status: 409, body: { message: 'Root folder is missing or empty' } };
}

function parse(ctx: RouteContext, title: string) {
  const { lib } = ctx;
  const found = lib.parseAnswers.get(title);
  if (ctx.type === 'radarr') {
    const m = found && 'movieId' in found ? lib.movies.get(found.movieId) : undefined;
    return { title, parsedMovieInfo: { movieTitles: [title] }, movie: m ? lib.movieView(m) : null };
  }
  const s = found && 'seriesId' in found ? lib.series.get(found.seriesId) : undefined;
  const episodes = s && found && 'episodeIds' in found ? found.episodeIds.map((e) => lib.episodes.get(e)!) : [];
  return { title, parsedEpisodeInfo: { releaseTitle: title }, series: s ?? null, episodes };
}

/** The arrs' history event numbers (Radarr's MovieHistoryEventType, Sonarr's EpisodeHistoryEventType). */
const EVENTS: Record<number, string> = {
  1: 'grabbed',
  3: 'downloadFolderImported',
  4: 'downloadFailed',
  6: 'movieFileRenamed',
};

function historyPage(lib: FakeLibrary, q: URLSearchParams) {
  const downloadId = q.get('downloadId');
  const movieIds = q.getAll('movieIds').map(Number);
  const seriesIds = q.getAll('seriesIds').map(Number);
  // `eventType` is an int[] in the current arrs: repeated, any of them matches.
  const eventTypes = q.getAll('eventType').map((t) => EVENTS[num(t) ?? -1]);
  const records = [...lib.history.values()]
    .filter(
      (r) =>
        (downloadId === null || r.downloadId === downloadId) &&
        (movieIds.length === 0 || movieIds.includes(r.movieId ?? -1)) &&
        (seriesIds.length === 0 || seriesIds.includes(r.seriesId ?? -1)) &&
        (eventTypes.length === 0 || eventTypes.includes(r.eventType)),
    )
    .map(({ failed: _failed, ...r }) => r)
    .sort((a, b) => b.id - a.id);
  const pageSize = num(q.get('pageSize')) ?? 10;
  const page = num(q.get('page')) ?? 1;
  return {
    page,
    pageSize,
    totalRecords: records.length,
    records: records.slice((page - 1) * pageSize, page * pageSize),
  };
}

/**
 * POST history/failed/{id}, as the arrs' FailedDownloadService.MarkAsFailed does it: every "grabbed" record with the
 * same download id is marked failed (a season pack grabbed once has one per episode), the release is blocklisted
 * once with all its episodes, and a "downloadFailed" record is written per grab. With "Redownload Failed" on, the
 * arr searches again for everything the release was for: one episode (EpisodeSearch), a whole season of one series
 * (SeasonSearch), else every episode (EpisodeSearch of them all). Files the arr has are kept; a search only
 * replaces one when it finds an upgrade.
 */
function markFailed(ctx: RouteContext, id: number): RouteAnswer {
  const { lib } = ctx;
  const rec = lib.history.get(id);
  if (!rec) return notFound;
  const sameDownload = [...lib.history.values()].filter(
    (r) => r.eventType === 'grabbed' && rec.downloadId && r.downloadId === rec.downloadId,
  );
  const grabs = [rec, ...sameDownload.filter((r) => r.id !== rec.id)];
  for (const g of grabs) {
    g.failed = true;
    const failedId = lib.id('history');
    lib.history.set(failedId, { ...g, id: failedId, eventType: 'downloadFailed', failed: undefined });
  }
  const episodeIds = [...new Set(grabs.map((g) => g.episodeId).filter((e): e is number => e !== undefined))];
  const entry = { historyId: id, downloadId: rec.downloadId, sourceTitle: rec.sourceTitle };
  lib.blocklist.push(episodeIds.length > 0 ? { ...entry, episodeIds } : entry);
  if (!ctx.autoRedownloadFailed) return ok();
  if (rec.movieId !== undefined) lib.queueCommand({ name: 'MoviesSearch', movieIds: [rec.movieId] }, 'redownload');
  else if (episodeIds.length > 0) lib.queueCommand(episodeSearch(lib, episodeIds), 'redownload');
  return ok();
}

/** What Sonarr searches for after a failed release of these episodes (RedownloadFailedDownloadService). */
function episodeSearch(lib: FakeLibrary, episodeIds: number[]): Record<string, unknown> {
  if (episodeIds.length === 1) return { name: 'EpisodeSearch', episodeIds };
  const episodes = episodeIds.map((e) => lib.episodes.get(e)).filter((e) => e !== undefined);
  const seasons = new Set(episodes.map((e) => `${e.seriesId}:${e.seasonNumber}`));
  if (seasons.size === 1) {
    const { seriesId, seasonNumber } = episodes[0]!;
    const inSeason = [...lib.episodes.values()].filter(
      (e) => e.seriesId === seriesId && e.seasonNumber === seasonNumber,
    );
    if (inSeason.length === episodeIds.length) return { name: 'SeasonSearch', seriesId, seasonNumber };
  }
  return { name: 'EpisodeSearch', episodeIds };
}

function strip({ body: _b, source: _s, ...cmd }: ReceivedCommand) {
  return { ...cmd, commandName: cmd.name };
}
