import { isUnder } from './path-mapping.js';
import {
  call,
  MediaServerError,
  type FolderChange,
  type MediaServerClient,
  type MediaServerSettings,
} from './media-server.client.js';
import type { MediaServerTestJson } from './mediaservers.wire.js';

/** A library section as `GET /library/sections` lists it (docs/mediaservers.md "Plex"). */
interface PlexSection {
  key: string;
  title?: string;
  Location?: { path: string }[];
}

/**
 * Plex Media Server: the token in `X-Plex-Token`, JSON asked for with `Accept`. A refresh finds the section whose
 * location holds the folder and asks for that folder only (`/library/sections/{key}/refresh?path=`), by GET as
 * Sonarr and python-plexapi send it, again by POST (the published API's method) when GET is not allowed.
 */
export class PlexClient implements MediaServerClient {
  constructor(private readonly server: MediaServerSettings) {}

  async test(signal: AbortSignal): Promise<MediaServerTestJson> {
    const sections = await this.sections(signal);
    const locations = sections.flatMap((s) => (s.Location ?? []).map((l) => l.path));
    return { ok: true, message: `${this.server.name}: ${sections.length} libraries`, locations };
  }

  async refresh(changes: readonly FolderChange[], signal: AbortSignal): Promise<void> {
    const sections = await this.sections(signal);
    for (const { folder } of changes) {
      // a folder none of this server's libraries holds is not its business (a delete under Spool's own job folders)
      const section = sectionHolding(sections, folder);
      if (!section) continue;
      const path = `/library/sections/${encodeURIComponent(section.key)}/refresh?path=${encodeURIComponent(folder)}`;
      try {
        await call(this.server, path, { method: 'GET', headers: this.headers(), signal });
      } catch (err) {
        if (!(err instanceof MediaServerError) || (err.status !== 404 && err.status !== 405)) throw err;
        await call(this.server, path, { method: 'POST', headers: this.headers(), signal });
      }
    }
  }

  private async sections(signal: AbortSignal): Promise<PlexSection[]> {
    const res = await call(this.server, '/library/sections', { headers: this.headers(), signal });
    let body: { MediaContainer?: { Directory?: PlexSection[] } };
    try {
      body = (await res.json()) as typeof body;
    } catch {
      throw new MediaServerError(`${this.server.name} did not answer like Plex (no JSON library list)`);
    }
    return body.MediaContainer?.Directory ?? [];
  }

  private headers(): Record<string, string> {
    return { Accept: 'application/json', 'X-Plex-Token': this.server.token };
  }
}

/** The section with the longest location holding `folder`. */
function sectionHolding(sections: readonly PlexSection[], folder: string): PlexSection | undefined {
  let best: { section: PlexSection; length: number } | undefined;
  for (const section of sections)
    for (const l of section.Location ?? [])
      if (isUnder(folder, l.path) && (!best || l.path.length > best.length)) best = { section, length: l.path.length };
  return best?.section;
}
