import type { KeyScope } from './api-key.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PROPFIND']);
/** SABnzbd's NZB key: the modes an add-only key may call (docs/security.md). */
export const ADD_ONLY_MODES = new Set(['addfile', 'addurl']);

/** The SABnzbd API's two paths (`/api` is it only with `mode`, the only way a route at exactly `/api` is reached). */
export function isSabnzbdApiPath(path: string): boolean {
  return path === '/sabnzbd/api' || path === '/api';
}

/**
 * Why a key of `scope` may not make this request, or null when it may. On the SABnzbd API the SABnzbd gate
 * (api/sabnzbd.routes.ts) checks the scope against the mode instead (sabModeRefusal).
 */
export function scopeRefusal(scope: KeyScope, method: string, path: string): string | null {
  // The SABnzbd gate answers these itself, in SABnzbd's envelope (sabModeRefusal): the arrs show its message.
  if (isSabnzbdApiPath(path)) return null;
  switch (scope) {
    case 'full':
      return null;
    case 'metrics':
      return path === '/metrics' && READ_METHODS.has(method)
        ? null
        : 'This API key has scope metrics: it reads /metrics only';
    case 'sabnzbd':
      return 'This API key has scope sabnzbd: it calls the SABnzbd API only';
    case 'add-only':
      return 'This API key has scope add-only: it adds NZBs over the SABnzbd API only';
    case 'read-only':
      return READ_METHODS.has(method) ? null : 'This API key has scope read-only: it changes nothing';
  }
}

/** Why a key of `scope` may not call SABnzbd mode `mode` (`changes`: whether this call changes something). */
export function sabModeRefusal(scope: KeyScope, mode: string, changes: boolean): string | null {
  if (scope === 'add-only' && !ADD_ONLY_MODES.has(mode))
    return 'This API key has scope add-only: it may only add NZBs (addfile, addurl)';
  if (scope === 'read-only' && changes) return 'This API key has scope read-only: it changes nothing';
  if (scope === 'metrics') return 'This API key has scope metrics: it reads /metrics only';
  return null;
}
