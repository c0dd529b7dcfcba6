/**
 * The parts of the Radarr/Sonarr v3 API Spool reads and sends (docs/arrs.md lists the endpoints). Fields the arrs
 * send but Spool never reads are left out; every field read is optional-safe in the client (an arr of another
 * version may omit it).
 */

/**
 * One entry of GET /api/v3/health (Radarr's and Sonarr's HealthResource): `source` names the check class
 * (NzbDrone.Core/HealthCheck/Checks, e.g. `RemotePathMappingCheck`), `type` its result.
 */
export interface HealthRecord {
  source: string;
  type: 'ok' | 'notice' | 'warning' | 'error';
  message: string;
  wikiUrl?: string;
}

export interface SystemStatus {
  appName: string;
  version: string;
  instanceName?: string;
  urlBase?: string;
}

export interface RootFolder {
  id: number;
  path: string;
  accessible?: boolean;
  freeSpace?: number;
}

/**
 * A file's quality as the arrs keep it (`QualityModel`): the quality and its revision. Revisions compare `real`, then
 * `version`; a same-quality release with a higher revision is an upgrade (docs/arrs.md "Continuity").
 */
export interface QualityModel {
  quality: { id: number; name?: string; source?: string; resolution?: number };
  revision: { version: number; real: number; isRepack?: boolean };
}

export interface MovieFile {
  id: number;
  movieId: number;
  path: string;
  relativePath?: string;
  sceneName?: string | null;
  size?: number;
  quality?: QualityModel;
}

export interface Movie {
  id: number;
  title: string;
  path?: string;
  tmdbId?: number;
  hasFile?: boolean;
  movieFileId?: number;
  movieFile?: MovieFile | null;
}

export interface Series {
  id: number;
  title: string;
  path?: string;
  tvdbId?: number;
}

export interface EpisodeFile {
  id: number;
  seriesId: number;
  seasonNumber?: number;
  path: string;
  relativePath?: string;
  sceneName?: string | null;
  size?: number;
  quality?: QualityModel;
}

export interface Episode {
  id: number;
  seriesId: number;
  episodeFileId?: number;
  seasonNumber?: number;
  episodeNumber?: number;
  hasFile?: boolean;
  monitored?: boolean;
}

/** GET /parse: Radarr answers `movie`, Sonarr `series` and `episodes`; null when not in the library. */
export interface ParseResult {
  title?: string;
  movie?: Movie | null;
  series?: Series | null;
  episodes?: Episode[];
}

/** The arr writes eventType as a name in JSON ("grabbed"); filters take the number (Grabbed = 1). */
export interface HistoryRecord {
  id: number;
  eventType: string;
  downloadId?: string;
  sourceTitle?: string;
  date?: string;
  movieId?: number;
  seriesId?: number;
  episodeId?: number;
  /**
   * Event details, strings keyed in camelCase; a "downloadFolderImported" record carries `fileId` (the moviefile or
   * episodefile it created), `droppedPath` (where the arr took the file from: the download's folder) and
   * `importedPath` (where it put it then; later renames do not update it).
   */
  data?: Record<string, string | null | undefined>;
}

export interface Paged<T> {
  page: number;
  pageSize: number;
  totalRecords: number;
  records: T[];
}

/** GET /config/downloadclient: whether the arr searches again by itself after a download is marked failed. */
export interface DownloadClientConfig {
  enableCompletedDownloadHandling?: boolean;
  autoRedownloadFailed?: boolean;
}

export type CommandBody =
  | { name: 'MoviesSearch'; movieIds: number[] }
  | { name: 'EpisodeSearch'; episodeIds: number[] }
  | { name: 'RescanMovie'; movieId: number }
  | { name: 'RescanSeries'; seriesId: number }
  | { name: 'RefreshMonitoredDownloads' };

export interface CommandResource {
  id: number;
  name: string;
  status?: string;
}

export const HISTORY_EVENT_GRABBED = 1;
export const HISTORY_EVENT_IMPORTED = 3;
export const HISTORY_EVENT_FAILED = 4;

const eventIs = (r: HistoryRecord, name: string, id: number) =>
  String(r.eventType).toLowerCase() === name.toLowerCase() || Number(r.eventType) === id;
export const isGrab = (r: HistoryRecord) => eventIs(r, 'grabbed', HISTORY_EVENT_GRABBED);
export const isImport = (r: HistoryRecord) => eventIs(r, 'downloadFolderImported', HISTORY_EVENT_IMPORTED);
export const isFailed = (r: HistoryRecord) => eventIs(r, 'downloadFailed', HISTORY_EVENT_FAILED);

/** A `data` entry whatever the case of its key (older arrs wrote PascalCase). */
export function historyData(r: HistoryRecord, key: string): string | undefined {
  const k = key.toLowerCase();
  for (const [name, value] of Object.entries(r.data ?? {})) if (name.toLowerCase() === k && value) return value;
  return undefined;
}
