import type { LibraryChangeKind, MediaServerKind, MediaServerTestJson } from './mediaservers.wire.js';

/** A folder to refresh, as the media server sees it, and what happened in it. */
export interface FolderChange {
  folder: string;
  kind: LibraryChangeKind;
}

/** The settings of one media server the clients need (the config's entry, docs/configuration.md). */
export interface MediaServerSettings {
  name: string;
  kind: MediaServerKind;
  url: string;
  token: string;
}

/** A media server that did not do what was asked: its HTTP status when it answered, else why (down, timed out). */
export class MediaServerError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** What Spool asks of a media server (docs/mediaservers.md): prove it answers, refresh folders. */
export interface MediaServerClient {
  test(signal: AbortSignal): Promise<MediaServerTestJson>;
  /** Refreshes each folder; throws a MediaServerError when the server does not take them all. */
  refresh(changes: readonly FolderChange[], signal: AbortSignal): Promise<void>;
}

/** One HTTP call: a refused or timed-out connection and a non-2xx answer are MediaServerErrors naming the server. */
export async function call(
  server: MediaServerSettings,
  path: string,
  init: RequestInit & { signal: AbortSignal },
): Promise<Response> {
  const url = `${server.url.replace(/\/+$/, '')}${path}`;
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'manual' });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    const why = init.signal.aborted
      ? 'did not answer in time'
      : `cannot be reached (${cause ?? (err as Error).message})`;
    throw new MediaServerError(`${server.name} ${why}`);
  }
  if (res.ok) return res;
  await res.body?.cancel();
  const hint = res.status === 401 || res.status === 403 ? ': check the token' : '';
  throw new MediaServerError(`${server.name} answered HTTP ${res.status}${hint}`, res.status);
}
