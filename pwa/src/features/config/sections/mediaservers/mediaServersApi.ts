import { api } from '../../../../api/client';
import type { MediaServerKind, MediaServerTestJson } from '../../../../api/types';

export const mediaServersApi = {
  test: (input: { name?: string; kind: MediaServerKind; url: string; token: string }) =>
    api.post<MediaServerTestJson>('/mediaservers/test', input),
};
