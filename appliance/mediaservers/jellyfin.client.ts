import {
  call,
  MediaServerError,
  type FolderChange,
  type MediaServerClient,
  type MediaServerSettings,
} from './media-server.client.js';
import type { MediaServerTestJson } from './mediaservers.wire.js';

/**
 * Jellyfin and Emby (docs/mediaservers.md): one `POST /Library/Media/Updated` with every folder and its kind of
 * change. Jellyfin takes the key as `Authorization: MediaBrowser Token="…"` (the form that works with its legacy
 * methods off, the default from 12.0); Emby as `X-Emby-Token`, under its documented `/emby` base.
 */
export class JellyfinClient implements MediaServerClient {
  constructor(private readonly server: MediaServerSettings) {}

  async test(signal: AbortSignal): Promise<MediaServerTestJson> {
    const res = await call(this.server, this.path('/System/Info'), { headers: this.headers(), signal });
    const info = (await res.json().catch(() => null)) as { ServerName?: string; Version?: string } | null;
    if (!info || typeof info !== 'object')
      throw new MediaServerError(`${this.server.name} did not answer like ${this.label()} (no system info)`);
    return {
      ok: true,
      message: `${info.ServerName ?? this.server.name} (${this.label()} ${info.Version ?? 'unknown version'})`,
      locations: await this.locations(signal),
    };
  }

  async refresh(changes: readonly FolderChange[], signal: AbortSignal): Promise<void> {
    if (changes.length === 0) return;
    await call(this.server, this.path('/Library/Media/Updated'), {
      method: 'POST',
      headers: { ...this.headers(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ Updates: changes.map((c) => ({ Path: c.folder, UpdateType: c.kind })) }),
      signal,
    });
  }

  /** The libraries' folders (admin keys only: a key that may not list them gets none, not an error). */
  private async locations(signal: AbortSignal): Promise<string[]> {
    try {
      const res = await call(this.server, this.path('/Library/VirtualFolders'), { headers: this.headers(), signal });
      const folders = (await res.json()) as { Locations?: string[] }[];
      return Array.isArray(folders) ? folders.flatMap((f) => f.Locations ?? []) : [];
    } catch {
      return [];
    }
  }

  private label(): string {
    return this.server.kind === 'emby' ? 'Emby' : 'Jellyfin';
  }

  private path(p: string): string {
    return this.server.kind === 'emby' && !/\/emby\/?$/i.test(this.server.url) ? `/emby${p}` : p;
  }

  private headers(): Record<string, string> {
    return this.server.kind === 'emby'
      ? { Accept: 'application/json', 'X-Emby-Token': this.server.token }
      : { Accept: 'application/json', Authorization: `MediaBrowser Token="${this.server.token}"` };
  }
}
