import {
  ArrAuthError,
  ArrBadResponseError,
  ArrConflictError,
  ArrNotFoundError,
  ArrRejectedError,
  ArrServerError,
  ArrTimeoutError,
  ArrUnreachableError,
  ArrUrlError,
} from './arr.errors.js';
import type { ArrType } from './arrs.wire.js';
import {
  HISTORY_EVENT_FAILED,
  HISTORY_EVENT_GRABBED,
  HISTORY_EVENT_IMPORTED,
  isFailed,
  isGrab,
  isImport,
  type CommandBody,
  type CommandResource,
  type DownloadClientConfig,
  type Episode,
  type EpisodeFile,
  type HistoryRecord,
  type Movie,
  type MovieFile,
  type Paged,
  type ParseResult,
  type QualityModel,
  type RootFolder,
  type Series,
  type HealthRecord,
  type SystemStatus,
} from './arr-v3.types.js';

export interface ArrClientOptions {
  type: ArrType;
  /** Base URL including any URL base the arr runs under (http://host:7878/radarr). */
  url: string;
  apiKey: string;
  /** Shown in error messages ("Radarr 'main'"). */
  name?: string;
  /** Per call; whole-library lists get `listTimeoutMs`. */
  timeoutMs?: number;
  listTimeoutMs?: number;
}

/** A list value is sent as the parameter repeated (`eventType=1&eventType=3`), as ASP.NET binds `int[]`. */
type Query = Record<string, string | number | readonly number[] | undefined>;

/**
 * Typed client of one Radarr or Sonarr v3 API (docs/arrs.md). Authenticates with `X-Api-Key`; every failure is an
 * `ArrError` subclass (arr.errors.ts) that says whether retrying may help.
 */
export class ArrClient {
  readonly type: ArrType;
  private readonly base: string;
  private readonly label: string;

  constructor(private readonly opts: ArrClientOptions) {
    this.type = opts.type;
    this.base = opts.url.trim().replace(/\/+$/, '');
    const app = opts.type === 'radarr' ? 'Radarr' : 'Sonarr';
    this.label = opts.name ? `${app} '${opts.name}'` : app;
  }

  systemStatus(): Promise<SystemStatus> {
    return this.get('system/status');
  }

  /** The arr's own health checks (System > Status), each with the check class that raised it. */
  health(): Promise<HealthRecord[]> {
    return this.get('health');
  }

  rootFolders(): Promise<RootFolder[]> {
    return this.get('rootfolder');
  }

  /** Every movie with its current file (one call; heavy on big libraries), or the movie of one TMDb id. */
  movies(tmdbId?: number): Promise<Movie[]> {
    return this.get('movie', { tmdbId }, tmdbId === undefined);
  }

  movieFiles(movieId: number): Promise<MovieFile[]> {
    return this.get('moviefile', { movieId });
  }

  series(): Promise<Series[]> {
    return this.get('series', {}, true);
  }

  episodeFiles(seriesId: number): Promise<EpisodeFile[]> {
    return this.get('episodefile', { seriesId });
  }

  episodesOfFile(episodeFileId: number): Promise<Episode[]> {
    return this.get('episode', { episodeFileId });
  }

  /** What the arr makes of a release name: the movie, or the series and episodes, when they are in the library. */
  parse(title: string): Promise<ParseResult> {
    return this.get('parse', { title });
  }

  /**
   * The "grabbed" and "downloadFolderImported" history records of one download id (the nzo_id Spool's SABnzbd API
   * answered): the grab names the movie or series and is what a blocklist marks failed; an import names the file
   * record it created (`data.fileId`) and the path it took the file from (`data.droppedPath`).
   */
  async downloadHistory(downloadId: string): Promise<HistoryRecord[]> {
    const page = await this.get<Paged<HistoryRecord>>('history', {
      downloadId,
      eventType: [HISTORY_EVENT_GRABBED, HISTORY_EVENT_IMPORTED],
      page: 1,
      pageSize: 250,
    });
    if (!page || !Array.isArray(page.records)) throw new ArrBadResponseError(this.what('GET', 'history'), 'no records');
    // Older arrs ignore filters they do not know; filter again so another download's records are never used.
    return page.records.filter((r) => r.downloadId === downloadId && (isGrab(r) || isImport(r)));
  }

  /**
   * The "downloadFailed" records of a download id: whether a grab of it was already marked failed (a repair cut
   * short by a restart asks this instead of marking it again).
   */
  async failedRecords(downloadId: string): Promise<HistoryRecord[]> {
    const page = await this.get<Paged<HistoryRecord>>('history', {
      downloadId,
      eventType: [HISTORY_EVENT_FAILED],
      page: 1,
      pageSize: 50,
    });
    if (!page || !Array.isArray(page.records)) throw new ArrBadResponseError(this.what('GET', 'history'), 'no records');
    return page.records.filter((r) => r.downloadId === downloadId && isFailed(r));
  }

  /** The "downloadFolderImported" records of one movie (Radarr) or series (Sonarr), newest first. */
  async importsOf(itemId: number): Promise<HistoryRecord[]> {
    const key = this.type === 'radarr' ? 'movieIds' : 'seriesIds';
    const page = await this.get<Paged<HistoryRecord>>('history', {
      [key]: [itemId],
      eventType: [HISTORY_EVENT_IMPORTED],
      page: 1,
      pageSize: 50,
      sortKey: 'date',
      sortDirection: 'descending',
    });
    if (!page || !Array.isArray(page.records)) throw new ArrBadResponseError(this.what('GET', 'history'), 'no records');
    const own = (r: HistoryRecord) => (this.type === 'radarr' ? r.movieId : r.seriesId) === itemId;
    return page.records.filter((r) => isImport(r) && own(r));
  }

  /**
   * Writes file records' quality through the bulk editor (`PUT moviefile/bulk`, `PUT episodefile/bulk`): the arr
   * changes only its database row, never the file (docs/arrs.md "Continuity").
   */
  async setFileQuality(files: { id: number; quality: QualityModel }[]): Promise<void> {
    await this.call('PUT', this.type === 'radarr' ? 'moviefile/bulk' : 'episodefile/bulk', undefined, files);
  }

  /** Marks a grab failed: the arr blocklists that release (and searches again if "Redownload Failed" is on). */
  async markFailed(historyId: number): Promise<void> {
    await this.call('POST', `history/failed/${historyId}`);
  }

  downloadClientConfig(): Promise<DownloadClientConfig> {
    return this.get('config/downloadclient');
  }

  /** Deletes the file record; the arr removes the file it points at (our symlink), never Spool's content. */
  async deleteMovieFile(id: number): Promise<void> {
    await this.call('DELETE', `moviefile/${id}`);
  }

  async deleteEpisodeFile(id: number): Promise<void> {
    await this.call('DELETE', `episodefile/${id}`);
  }

  command(body: CommandBody): Promise<CommandResource> {
    return this.call('POST', 'command', undefined, body);
  }

  searchMovies(movieIds: number[]): Promise<CommandResource> {
    return this.command({ name: 'MoviesSearch', movieIds });
  }

  searchEpisodes(episodeIds: number[]): Promise<CommandResource> {
    return this.command({ name: 'EpisodeSearch', episodeIds });
  }

  rescanMovie(movieId: number): Promise<CommandResource> {
    return this.command({ name: 'RescanMovie', movieId });
  }

  rescanSeries(seriesId: number): Promise<CommandResource> {
    return this.command({ name: 'RescanSeries', seriesId });
  }

  /** Makes the arr poll its download clients (our SABnzbd queue and history) now instead of within a minute. */
  refreshMonitoredDownloads(): Promise<CommandResource> {
    return this.command({ name: 'RefreshMonitoredDownloads' });
  }

  private get<T>(path: string, query: Query = {}, list = false): Promise<T> {
    return this.call('GET', path, query, undefined, list);
  }

  private what(method: string, path: string): string {
    return `${this.label} ${method} /api/v3/${path}`;
  }

  private async call<T>(method: string, path: string, query: Query = {}, body?: unknown, list = false): Promise<T> {
    const what = this.what(method, path);
    let url: URL;
    try {
      url = new URL(`${this.base}/api/v3/${path}`);
    } catch {
      throw new ArrUrlError(what, 'not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ArrUrlError(what, 'not http or https');
    for (const [k, v] of Object.entries(query)) {
      if (Array.isArray(v)) for (const item of v as readonly number[]) url.searchParams.append(k, String(item));
      else if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const ms = list ? (this.opts.listTimeoutMs ?? 60_000) : (this.opts.timeoutMs ?? 10_000);
    const headers: Record<string, string> = { 'X-Api-Key': this.opts.apiKey, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let status: number;
    let text: string;
    let location: string | null = null;
    try {
      const res = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(ms),
        redirect: 'manual',
      });
      status = res.status;
      location = res.headers.get('location');
      text = await res.text();
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      if (e.name === 'TimeoutError' || e.name === 'AbortError') throw new ArrTimeoutError(what, ms);
      // fetch refuses to build some requests (e.g. credentials in the URL) with a TypeError that has no cause.
      if (e.name === 'TypeError' && !e.cause) throw new ArrUrlError(what, e.message);
      throw new ArrUnreachableError(what, e.cause?.code ?? e.cause?.message ?? e.message);
    }
    if (status >= 200 && status < 300) return parseBody<T>(what, text);
    // Redirects are not followed (the key must not travel elsewhere); one usually means a wrong scheme or URL base.
    const detail = status >= 300 && status < 400 ? `redirected to ${location ?? '?'}` : errorDetail(text);
    if (status === 401 || status === 403) throw new ArrAuthError(what, status);
    if (status === 404) throw new ArrNotFoundError(what);
    if (status === 409) throw new ArrConflictError(what, detail);
    if (status >= 500) throw new ArrServerError(what, status, detail);
    throw new ArrRejectedError(what, status, detail);
  }
}

function parseBody<T>(what: string, text: string): T {
  if (text.trim() === '') return {} as T; // DELETE and history/failed answer 200 with an empty body
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ArrBadResponseError(what, `not JSON: ${text.slice(0, 80)}`);
  }
}

/** The arrs answer errors as `{message}` or a list of `{errorMessage}`; anything else is shown cut short. */
function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    if (Array.isArray(body)) {
      return body
        .map((e) => (e as { errorMessage?: string }).errorMessage)
        .filter(Boolean)
        .join('; ');
    }
    const msg = (body as { message?: unknown }).message;
    if (typeof msg === 'string') return msg;
  } catch {
    /* not JSON */
  }
  return text.trim().slice(0, 200);
}
