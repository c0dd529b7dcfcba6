import { api } from '../../api/client';
import type { StreamsHistoryResponse, StreamsResponse } from '../../../../appliance/streams/streams.wire';

export type {
  ClassBytesDay,
  EndedStreamInfo,
  FetchedBytesDay,
  StreamInfo,
  StreamsHistoryResponse,
  StreamsResponse,
} from '../../../../appliance/streams/streams.wire';
export { FETCH_CLASSES, READER_CLASSES } from '../../../../appliance/streams/streams.wire';

export const streamsApi = {
  list: (signal?: AbortSignal) => api.get<StreamsResponse>('/streams', { signal }),
  history: (signal?: AbortSignal) => api.get<StreamsHistoryResponse>('/streams/history', { signal }),
  /** Admin: WebDAV cuts the connection, FUSE answers the handle's reads with EIO. */
  end: (id: string) => api.delete<unknown>(`/streams/${encodeURIComponent(id)}`),
};
