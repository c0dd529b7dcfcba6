import { StreamLinkService } from '../streamlinks/index.js';
import type { AppCore } from './core.js';

/**
 * Stream links (appliance/streamlinks) on their storage port (the node's LMDB, or PostgreSQL shared by every node:
 * streamlinks.storage.ts), their URLs at import.strm_base_url (the
 * operator's reverse proxy's public URL), read live; empty: http://localhost:<webdav.port>.
 */
export function createStreamLinks(core: AppCore): StreamLinkService {
  const baseUrl = () => {
    const c = core.config.get();
    return c.import.strm_base_url || `http://localhost:${c.webdav.port}`;
  };
  return new StreamLinkService(core.stores.streamLinks, baseUrl, core.logger.child('stream-links'));
}
