/**
 * A stateful, strict fake Radarr or Sonarr (v3 API) on a real HTTP server at 127.0.0.1:<free port>, for tests of
 * the arrs domain and of repair. It keeps an in-memory library (movies or series, files, episodes, grab history),
 * records every call, and can be told to fail.
 *
 *   const arr = await startFakeArr({ type: 'radarr' });
 *   const movie = arr.addMovie({ title: 'Film', path: '/movies/Film (2020)' });
 *   const file = arr.addMovieFile(movie.id, { path: '/movies/Film (2020)/Film.mkv', sceneName: 'Film.2020.1080p' });
 *   const grab = arr.addGrab({ downloadId: 'SABnzbd_nzo_x', movieId: movie.id, sourceTitle: 'Film.2020.1080p' });
 *   arr.addImport({ downloadId: 'SABnzbd_nzo_x', movieId: movie.id, fileId: file.id, droppedPath, importedPath });
 *   arr.renameFile(file.id, '/movies/Film (2020)/Film (2020) Remux.mkv');
 *   arr.fail({ method: 'DELETE', path: /^moviefile\//, status: 409 });   // or status: 'hang', times: 1
 *   ... arr.calls, arr.unexpected, arr.lib.commands, arr.lib.blocklist, arr.lib.movieFiles ...
 *   await arr.close();
 *
 * `urlBase: '/radarr'` serves the routes under /radarr/api/v3/ (an arr behind a reverse proxy).
 *
 * Auth: `X-Api-Key` header or `apikey` query, as the arrs accept; a wrong or missing key answers 401. Routes are
 * matched case-insensitively. An unknown route answers 404 and lands in `unexpected` (a test should expect it
 * empty). DELETE of a file record removes that path from disk only if it is a symlink (the arr removes our
 * symlink; the fake never deletes anything else). history/failed/{id} blocklists the grab and, with
 * `autoRedownloadFailed`, queues the search itself (`source: 'redownload'`), as the arrs' "Redownload Failed" does.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ArrType } from '../../../appliance/arrs/arrs.wire.js';
import type {
  Episode,
  EpisodeFile,
  HistoryRecord,
  Movie,
  MovieFile,
  QualityModel,
  Series,
} from '../../../appliance/arrs/arr-v3.types.js';
import { FakeLibrary, type ParseAnswer } from './library.js';
import { answer, type RouteContext } from './routes.js';

/** Bluray-1080p (Radarr's and Sonarr's quality id 7), revision 1: a plain release. */
export function defaultQuality(): QualityModel {
  return {
    quality: { id: 7, name: 'Bluray-1080p', source: 'bluray', resolution: 1080 },
    revision: { version: 1, real: 0, isRepack: false },
  };
}

export interface FakeArrOptions {
  type: ArrType;
  apiKey?: string;
  /** What system/status reports (default 'Radarr' / 'Sonarr'): set the other one to test the type check. */
  appName?: string;
  version?: string;
  rootFolders?: string[];
  autoRedownloadFailed?: boolean;
  /** Serve under a URL base, as an arr behind a reverse proxy ('/radarr': routes at /radarr/api/v3/...). */
  urlBase?: string;
}

export interface RecordedCall {
  method: string;
  /** As requested, e.g. '/api/v3/moviefile/3'. */
  path: string;
  query: Record<string, string>;
  /** The query string as sent (repeated parameters, e.g. `eventType=1&eventType=3`, show only here). */
  search: string;
  body: unknown;
  apiKey: string | undefined;
}

export interface Fault {
  method?: string;
  /** Matched against the lower-cased path after /api/v3/ ('moviefile/3'). */
  path: string | RegExp;
  /**
   * An HTTP status to answer, 'hang' (never answer; the client's timeout must fire), or 'done-then-hang': do what
   * the call asks, then never answer (the arr acted, but its caller died or gave up before it heard so).
   */
  status: number | 'hang' | 'done-then-hang';
  /** How many matching calls fail (default: all). */
  times?: number;
  body?: unknown;
}

export class FakeArr {
  readonly lib = new FakeLibrary();
  readonly calls: RecordedCall[] = [];
  readonly unexpected: RecordedCall[] = [];
  readonly ctx: RouteContext;
  private readonly faults: Fault[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly urlBase: string;
  url = '';
  port = 0;

  constructor(
    readonly type: ArrType,
    readonly apiKey: string,
    opts: FakeArrOptions,
    private readonly server = http.createServer((req, res) => void this.handle(req, res)),
  ) {
    this.urlBase = (opts.urlBase ?? '').replace(/\/+$/, '');
    this.ctx = {
      type,
      lib: this.lib,
      appName: opts.appName ?? (type === 'radarr' ? 'Radarr' : 'Sonarr'),
      version: opts.version ?? (type === 'radarr' ? '5.26.2.10099' : '4.0.15.2941'),
      rootFolders: opts.rootFolders ?? [type === 'radarr' ? '/movies' : '/tv'],
      rootFolderMissing: false,
      autoRedownloadFailed: opts.autoRedownloadFailed ?? false,
      urlBase: this.urlBase,
      health: [],
    };
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
    return this;
  }

  /** The arr's 409 failsafe on file deletes (root folder missing or empty). */
  set rootFolderMissing(v: boolean) {
    this.ctx.rootFolderMissing = v;
  }

  /** What GET /api/v3/health answers from now on (the arr's own health checks). */
  set health(list: RouteContext['health']) {
    this.ctx.health = list;
  }

  fail(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  /** Every call so far, in order, as 'METHOD path' without /api/v3/ (short form for assertions). */
  callLines(): string[] {
    return this.calls.map((c) => `${c.method} ${c.path.slice(this.urlBase.length).replace(/^\/api\/v3\//i, '')}`);
  }

  addMovie(m: Omit<Movie, 'id'>): Movie {
    const movie = { ...m, id: this.lib.id('movie') };
    this.lib.movies.set(movie.id, movie);
    return movie;
  }

  /** A file record; every file the arrs keep has a quality (`quality` defaults to Bluray-1080p, revision 1). */
  addMovieFile(movieId: number, f: Omit<MovieFile, 'id' | 'movieId'>): MovieFile {
    const file = { quality: defaultQuality(), ...f, id: this.lib.id('moviefile'), movieId };
    this.lib.movieFiles.set(file.id, file);
    return file;
  }

  addSeries(s: Omit<Series, 'id'>): Series {
    const series = { ...s, id: this.lib.id('series') };
    this.lib.series.set(series.id, series);
    return series;
  }

  addEpisode(seriesId: number, e: Omit<Episode, 'id' | 'seriesId'>): Episode {
    const ep = { monitored: true, ...e, id: this.lib.id('episode'), seriesId };
    this.lib.episodes.set(ep.id, ep);
    return ep;
  }

  /** Adds the file and points its episodes at it. */
  addEpisodeFile(seriesId: number, f: Omit<EpisodeFile, 'id' | 'seriesId'> & { episodeIds: number[] }): EpisodeFile {
    const { episodeIds, ...rest } = f;
    const file = { quality: defaultQuality(), ...rest, id: this.lib.id('episodefile'), seriesId };
    this.lib.episodeFiles.set(file.id, file);
    for (const id of episodeIds) this.lib.episodes.get(id)!.episodeFileId = file.id;
    return file;
  }

  /** A "grabbed" history record, as the arr writes when it sends a release to a download client. */
  addGrab(g: Omit<HistoryRecord, 'id' | 'eventType'>): HistoryRecord {
    const rec: HistoryRecord = {
      date: new Date().toISOString(),
      ...g,
      id: this.lib.id('history'),
      eventType: 'grabbed',
    };
    this.lib.history.set(rec.id, rec);
    return rec;
  }

  /**
   * A "downloadFolderImported" record, as the arr writes one for each file it imports from a download (Sonarr: one
   * per episode of the file), with its download id and the data the real arrs put there: the file record it
   * created (`fileId`), where it took the file from (`droppedPath`) and where it put it (`importedPath`).
   */
  addImport(i: {
    downloadId: string;
    movieId?: number;
    seriesId?: number;
    episodeId?: number;
    fileId: number;
    droppedPath: string;
    importedPath: string;
    sourceTitle?: string;
  }): HistoryRecord {
    const { fileId, droppedPath, importedPath, ...rest } = i;
    const rec: HistoryRecord = {
      date: new Date().toISOString(),
      ...rest,
      id: this.lib.id('history'),
      eventType: 'downloadFolderImported',
      data: {
        fileId: String(fileId),
        droppedPath,
        importedPath,
        downloadClient: 'Sabnzbd',
        downloadClientName: 'Spool',
      },
    };
    this.lib.history.set(rec.id, rec);
    return rec;
  }

  /**
   * The arr renames or moves a file record (its "Rename Files" or a changed root folder): the record gets the new
   * path and the history a rename event without a download id, as the arrs write it. The import's `importedPath`
   * keeps the old path. Moving the file on disk is the caller's business.
   */
  renameFile(fileId: number, path: string): void {
    const file = this.type === 'radarr' ? this.lib.movieFiles.get(fileId) : this.lib.episodeFiles.get(fileId);
    if (!file) throw new Error(`no file record ${fileId}`);
    const from = file.path;
    file.path = path;
    const rec: HistoryRecord = {
      id: this.lib.id('history'),
      eventType: this.type === 'radarr' ? 'movieFileRenamed' : 'episodeFileRenamed',
      date: new Date().toISOString(),
      sourceTitle: from,
      ...('movieId' in file ? { movieId: file.movieId } : { seriesId: file.seriesId }),
      data: { sourcePath: from, path },
    };
    this.lib.history.set(rec.id, rec);
  }

  /**
   * Whether the arr would grab a release of `quality` for the item while `fileId` exists: the gate of the arrs'
   * UpgradeDiskSpecification / UpgradableSpecification (docs/arrs.md "Continuity"), for a profile with upgrades on,
   * propers preferred and no custom formats: a better quality, or the same quality with a higher revision (`real`,
   * then `version`). Anything else is "Existing file meets cutoff".
   */
  wouldGrab(fileId: number, quality: QualityModel): boolean {
    const file = this.type === 'radarr' ? this.lib.movieFiles.get(fileId) : this.lib.episodeFiles.get(fileId);
    if (!file?.quality) return true;
    const had = file.quality;
    if (quality.quality.id !== had.quality.id) return (quality.quality.resolution ?? 0) > (had.quality.resolution ?? 0);
    if (quality.revision.real !== had.revision.real) return quality.revision.real > had.revision.real;
    return quality.revision.version > had.revision.version;
  }

  /**
   * The arr imports an upgrade of `oldFileId` from a completed download, as UpgradeMediaFileService does: the old
   * file goes first (its path removed when it is our symlink, its row deleted with reason Upgrade), then the new
   * file is moved in (`placeAt`, the caller's move) and gets a row of its own, and a "downloadFolderImported"
   * record is written with the new download id. Returns the new file record.
   */
  async importUpgrade(i: {
    oldFileId: number;
    downloadId: string;
    path: string;
    droppedPath: string;
    quality?: QualityModel;
    sourceTitle?: string;
    placeAt?: () => Promise<void>;
  }): Promise<MovieFile | EpisodeFile> {
    const movies = this.type === 'radarr';
    const old = movies ? this.lib.movieFiles.get(i.oldFileId) : this.lib.episodeFiles.get(i.oldFileId);
    if (!old) throw new Error(`no file record ${i.oldFileId}`);
    await this.lib.removeFromDisk(old.path);
    const episodes = [...this.lib.episodes.values()].filter((e) => e.episodeFileId === old.id);
    if (movies) this.lib.movieFiles.delete(old.id);
    else this.lib.episodeFiles.delete(old.id);
    await i.placeAt?.();
    const quality = i.quality ?? defaultQuality();
    const sceneName = i.sourceTitle ?? null;
    let created: MovieFile | EpisodeFile;
    if ('movieId' in old) created = this.addMovieFile(old.movieId, { path: i.path, quality, sceneName });
    else
      created = this.addEpisodeFile(old.seriesId, {
        path: i.path,
        quality,
        sceneName,
        episodeIds: episodes.map((e) => e.id),
      });
    const owner = 'movieId' in old ? { movieId: old.movieId } : { seriesId: old.seriesId };
    for (const episodeId of episodes.length ? episodes.map((e) => e.id) : [undefined])
      this.addImport({
        downloadId: i.downloadId,
        ...owner,
        ...(episodeId === undefined ? {} : { episodeId }),
        fileId: created.id,
        droppedPath: i.droppedPath,
        importedPath: i.path,
        ...(i.sourceTitle ? { sourceTitle: i.sourceTitle } : {}),
      });
    return created;
  }

  /** What GET /parse?title= answers for that exact title (anything else parses to "not in the library"). */
  parseAs(title: string, found: ParseAnswer): void {
    this.lib.parseAnswers.set(title, found);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const header = req.headers['x-api-key'];
    const call: RecordedCall = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      search: url.search.replace(/^\?/, ''),
      body,
      apiKey: (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey') ?? undefined,
    };
    this.calls.push(call);
    const send = (status: number, payload?: unknown) => {
      const text = payload === undefined ? '' : JSON.stringify(payload);
      res.writeHead(status, { 'content-type': 'application/json' }).end(text);
    };
    if (call.apiKey !== this.apiKey) return send(401);
    const rest = url.pathname.startsWith(`${this.urlBase}/`) ? url.pathname.slice(this.urlBase.length) : '';
    const m = /^\/api\/v3\/(.*)$/i.exec(rest);
    if (!m) {
      this.unexpected.push(call);
      return send(404, { message: 'NotFound' });
    }
    const path = m[1]!.toLowerCase().replace(/\/+$/, '');
    const fault = this.faults.find(
      (f) =>
        (f.times === undefined || f.times > 0) &&
        (!f.method || f.method === call.method) &&
        (typeof f.path === 'string' ? f.path === path : f.path.test(path)),
    );
    if (fault) {
      if (fault.times !== undefined) fault.times--;
      if (fault.status === 'hang') return; // the socket is destroyed by the client's timeout or by close()
      if (fault.status === 'done-then-hang') {
        await answer(this.ctx, { method: call.method, path, query: url.searchParams, body });
        return;
      }
      return send(fault.status, fault.body ?? { message: `injected ${fault.status}` });
    }
    const out = await answer(this.ctx, { method: call.method, path, query: url.searchParams, body });
    if (!out) {
      this.unexpected.push(call);
      return send(404, { message: 'NotFound' });
    }
    send(out.status, out.body);
  }
}

export async function startFakeArr(opts: FakeArrOptions): Promise<FakeArr> {
  const key = opts.apiKey ?? `${opts.type}-test-key`;
  return new FakeArr(opts.type, key, opts).listen();
}
