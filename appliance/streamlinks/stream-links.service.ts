import { randomBytes } from 'node:crypto';
import type { Logger } from '../logging/logger.js';
import { parseStreamLink, signStreamLink, signatureHolds } from './stream-link.token.js';
import type { StreamLinkRecord, StreamLinkStore } from './stream-links.port.js';

/** The URL prefix stream links are served under (webdav/stream-link.routes.ts). */
export const STREAM_LINK_PREFIX = '/stream';

export interface NewStreamLink {
  path: string;
  folder?: boolean;
  /** Seconds the link lives; 0 or absent for a link that never expires. */
  ttlSeconds?: number;
  createdBy: string;
}

/** Why a link was refused: each is answered 401 and logged with the link's id (never the token). */
export type StreamLinkRefusal = 'malformed' | 'unknown' | 'tampered' | 'expired' | 'outside';

export type StreamLinkCheck =
  { ok: true; path: string; link: StreamLinkRecord } | { ok: false; reason: StreamLinkRefusal };

/**
 * Per-file (or per-folder) links signed by Spool for reading only (docs/security.md "Stream links"): an HMAC over the
 * link's id, expiry and path with a secret kept in the store (rotating it revokes every link), a record per link (removing
 * it revokes that link), an optional expiry. The URL starts at the configured external base URL.
 */
export class StreamLinkService {
  constructor(
    private readonly store: StreamLinkStore,
    private readonly baseUrl: () => string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Makes a link and answers it with its URL. */
  async create(req: NewStreamLink): Promise<{ link: StreamLinkRecord; url: string }> {
    const nowS = Math.floor(this.now() / 1000);
    const link: StreamLinkRecord = {
      id: randomBytes(12).toString('base64url'),
      path: req.path,
      folder: req.folder ?? false,
      expiresAt: req.ttlSeconds ? nowS + req.ttlSeconds : 0,
      createdAt: nowS,
      createdBy: req.createdBy,
    };
    await this.store.put(link);
    return { link, url: await this.urlOf(link) };
  }

  /** The URL of a kept link: `<base>/stream/<token>/<file name>` (the name lets players see the container). */
  async urlOf(link: StreamLinkRecord): Promise<string> {
    const token = signStreamLink(await this.store.secret(), link, this.signedPath(link));
    const name = link.folder ? '' : (link.path.split('/').pop() ?? '');
    const base = this.baseUrl().replace(/\/+$/, '');
    return `${base}${STREAM_LINK_PREFIX}/${token}/${encodeURIComponent(name)}`;
  }

  list(): Promise<StreamLinkRecord[]> {
    return this.store.list();
  }

  /** Revokes one link: its next request, even on a connection a player holds open, is refused. */
  revoke(id: string): Promise<boolean> {
    return this.store.remove(id);
  }

  /** Revokes every link at once by replacing the signing secret. */
  rotateSecret(): Promise<void> {
    return this.store.rotateSecret();
  }

  /**
   * Checks a request's token and the path after it (`rest`, decoded): the virtual path it may read, or why not.
   * A file link opens only its own file (`rest` must be its name); a folder link only paths under its folder.
   */
  async check(token: string, rest: string): Promise<StreamLinkCheck> {
    const claims = parseStreamLink(token);
    const refuse = (reason: StreamLinkRefusal): StreamLinkCheck => {
      this.logger.warn('stream link refused', { reason, link: claims?.id ?? null });
      return { ok: false, reason };
    };
    if (!claims) return refuse('malformed');
    const link = await this.store.get(claims.id);
    if (!link) return refuse('unknown');
    const signed = { id: link.id, expiresAt: claims.expiresAt };
    if (!signatureHolds(await this.store.secret(), signed, this.signedPath(link), claims.signature))
      return refuse('tampered');
    if (claims.expiresAt !== link.expiresAt) return refuse('tampered');
    if (link.expiresAt !== 0 && Math.floor(this.now() / 1000) >= link.expiresAt) return refuse('expired');
    const path = this.target(link, rest);
    return path ? { ok: true, path, link } : refuse('outside');
  }

  private signedPath(link: StreamLinkRecord): string {
    return link.folder ? `${link.path}/` : link.path;
  }

  private target(link: StreamLinkRecord, rest: string): string | null {
    const parts = rest.split('/').filter((p) => p !== '');
    if (parts.some((p) => p === '.' || p === '..' || p.includes('\0'))) return null;
    if (!link.folder) return parts.length === 1 && parts[0] === link.path.split('/').pop() ? link.path : null;
    return parts.length ? `${link.path.replace(/\/+$/, '')}/${parts.join('/')}` : null;
  }
}
