import { StreamLinkService, openStreamLinkStore } from '../streamlinks/index.js';
import type { AppCore } from './core.js';

/**
 * Stream links (appliance/streamlinks) on the node's LMDB environment, their URLs at import.strm_base_url (the
 * operator's reverse proxy's public URL), read live; empty: http://localhost:<webdav.port>.
 */
export function createStreamLinks(core: AppCore): StreamLinkService {
  const baseUrl = () => {
    const c = core.config.get();
    return c.import.strm_base_url || `http://localhost:${c.webdav.port}`;
  };
  return new StreamLinkService(openStreamLinkStore(core.stores.local), baseUrl, core.logger.child('stream-links'));
}
