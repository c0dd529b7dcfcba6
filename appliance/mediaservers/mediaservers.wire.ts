/**
 * Wire types of the media servers Spool tells about library changes (docs/mediaservers.md), shared with the console.
 * Pure data and types: nothing here imports from Node, so `pwa/` can import this file as it is.
 */

export const MEDIA_SERVER_KINDS = ['plex', 'jellyfin', 'emby'] as const;
export type MediaServerKind = (typeof MEDIA_SERVER_KINDS)[number];

export const MEDIA_SERVER_KIND_LABELS: Record<MediaServerKind, string> = {
  plex: 'Plex',
  jellyfin: 'Jellyfin',
  emby: 'Emby',
};

/** What happened at a path: Jellyfin's and Emby's `UpdateType` values. */
export type LibraryChangeKind = 'Created' | 'Modified' | 'Deleted';

/** Why Spool tells the media servers: an import no arr takes, a repair's swap, a delete, a `.strm` rewritten. */
export type LibraryChangeCause = 'import' | 'repair' | 'delete' | 'strm';

/** POST /api/mediaservers/test: the server answered (and, for Plex, the library locations it has). */
export interface MediaServerTestJson {
  ok: boolean;
  message: string;
  /** Folders the server's libraries hold (Plex sections, Jellyfin/Emby virtual folders when it lists them). */
  locations: string[];
}

/** One refresh sent (or given up), newest first in GET /api/mediaservers/activity. */
export interface MediaServerRefreshJson {
  server: string;
  kind: MediaServerKind;
  /** Folders as the media server sees them (after path mapping). */
  folders: string[];
  causes: LibraryChangeCause[];
  /** `done`, `retrying` (another attempt is scheduled) or `failed` (given up). */
  state: 'done' | 'retrying' | 'failed';
  attempts: number;
  error: string | null;
  /** ISO 8601. */
  at: string;
}
