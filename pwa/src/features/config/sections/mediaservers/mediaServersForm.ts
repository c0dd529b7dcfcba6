import type { MediaServerKind, SpoolConfig } from '../../../../api/types';
import { nameAndUrlProblems } from '../cards/itemRules';

type SavedServer = SpoolConfig['media_servers']['servers'][number];

/** One server being edited: the saved view plus a token typed now ('' keeps the stored one). */
export interface ServerForm extends SavedServer {
  token: string;
  /** The name it was saved under (the server finds its stored token by it); '' for a new one. */
  saved_name: string;
}

export type MediaServersForm = Omit<SpoolConfig['media_servers'], 'servers'> & { servers: ServerForm[] };

export const URL_PLACEHOLDER: Record<MediaServerKind, string> = {
  plex: 'http://plex:32400',
  jellyfin: 'http://jellyfin:8096',
  emby: 'http://emby:8096',
};

export const TOKEN_HINT: Record<MediaServerKind, string> = {
  plex: 'The X-Plex-Token of an account that owns the server.',
  jellyfin: 'An API key (Dashboard → API Keys).',
  emby: 'An API key (Settings → Advanced → API Keys).',
};

export function formFromConfig(m: SpoolConfig['media_servers']): MediaServersForm {
  return { ...m, servers: m.servers.map((s) => ({ ...s, token: '', saved_name: s.name })) };
}

export function newServer(index: number): ServerForm {
  return {
    name: `Media server ${index + 1}`,
    kind: 'jellyfin',
    url: '',
    token: '',
    token_set: false,
    enabled: true,
    refresh_imports: false,
    path_mappings: [],
    saved_name: '',
  };
}

/** What PATCH /config/media_servers is sent: the token only when typed (blank keeps the stored one). */
export function payloadOf(form: MediaServersForm): Record<string, unknown> {
  return {
    ...form,
    servers: form.servers.map(({ saved_name: _saved, token_set: _set, ...s }) => ({
      ...s,
      name: s.name.trim(),
      url: s.url.trim(),
      path_mappings: s.path_mappings.map((m) => ({ from: m.from.trim(), to: m.to.trim() })),
    })),
  };
}

/** The problems that keep the form from saving, in words. */
export function problemsOf(form: MediaServersForm): string[] {
  const mappings = form.servers.flatMap((s) => s.path_mappings);
  return [
    ...nameAndUrlProblems(form.servers, 'media server'),
    ...(mappings.some((m) => !m.from.trim().startsWith('/') || !m.to.trim().startsWith('/'))
      ? ['Path mappings are absolute paths (starting with /)']
      : []),
  ];
}
