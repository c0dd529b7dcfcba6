export {
  StreamLinkService,
  STREAM_LINK_PREFIX,
  type NewStreamLink,
  type StreamLinkCheck,
} from './stream-links.service.js';
export type { StreamLinkRecord, StreamLinkStore } from './stream-links.port.js';
export { openStreamLinkStore } from './stream-links.store.js';
