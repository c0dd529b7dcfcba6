/**
 * Media servers (docs/mediaservers.md): Plex, Jellyfin and Emby told which folders changed, so a library never
 * waits for a scan to see an import, a repair's swap, a delete or a rewritten `.strm`.
 */
export { MediaServersService, clientFor, type LibraryChange, type MediaServerConfig } from './mediaservers.service.js';
export type { MediaServersSettings, MediaServersDeps } from './mediaservers.service.js';
export type { BatchOutcome } from './refresh-queue.js';
export { RETRY_DELAYS_MS } from './refresh-queue.js';
export { mapPath, folderOf, type PathMapping } from './path-mapping.js';
