import path from 'node:path';
import { isHttpUrl } from '../config/rules.js';
import { ImportError, type ImporterDomain, type UnstreamableHandler } from '../importer/index.js';
import type { Logger } from '../logging/logger.js';

/** How long a call to the fallback SABnzbd may take. */
const TIMEOUT_MS = 30_000;

export interface FallbackTarget {
  /** sabnzbd.fallback_host, e.g. http://sabnzbd:8080 (its URL base included when it has one). */
  host: string;
  /** sabnzbd.fallback_api_key. */
  apiKey: string;
}

/** A job's state in the fallback SABnzbd, as Spool's history reports it for the forwarded item. */
export interface RemoteJob {
  status: string;
  storage: string;
  failMessage: string;
}

/**
 * A client of a real SABnzbd: Spool hands it NZBs it cannot stream (addfile, exactly as the arrs send it) and
 * reads the job's state back so the arr, which knows only Spool's nzo_id, sees the download finish there.
 */
export class FallbackClient {
  constructor(private readonly target: () => FallbackTarget) {}

  configured(): boolean {
    const t = this.target();
    return t.host.trim() !== '' && isHttpUrl(t.host.trim());
  }

  host(): string {
    return this.target().host.trim().replace(/\/+$/, '');
  }

  private url(params: Record<string, string>): string {
    const q = new URLSearchParams({ ...params, apikey: this.target().apiKey, output: 'json' });
    return `${this.host()}/api?${q.toString()}`;
  }

  private async call(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await res.text();
    if (!res.ok) throw new Error(`the SABnzbd at ${this.host()} answered HTTP ${res.status}`);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new Error(`the SABnzbd at ${this.host()} did not answer JSON`);
    }
    if (String(body.status).toLowerCase() === 'false')
      throw new Error(`the SABnzbd at ${this.host()} refused: ${String(body.error ?? 'no reason given')}`);
    return body;
  }

  /** Sends the NZB; returns the fallback's nzo_id. */
  async add(nzb: Buffer, filename: string, category: string | null, priority: number): Promise<string> {
    const form = new FormData();
    form.append('name', new Blob([new Uint8Array(nzb)], { type: 'application/x-nzb' }), filename);
    const url = this.url({ mode: 'addfile', cat: category ?? '*', priority: String(priority) });
    const body = await this.call(url, { method: 'POST', body: form });
    const ids = body.nzo_ids;
    if (!Array.isArray(ids) || typeof ids[0] !== 'string')
      throw new Error(`the SABnzbd at ${this.host()} did not take the NZB`);
    return ids[0];
  }

  /** The job's state there: its queue first (still downloading), then its history; undefined when unknown. */
  async job(nzoId: string): Promise<RemoteJob | undefined> {
    const queue = await this.call(this.url({ mode: 'queue', nzo_ids: nzoId, limit: '0' }));
    const qSlots = ((queue.queue as Record<string, unknown> | undefined)?.slots ?? []) as Record<string, unknown>[];
    const queued = qSlots.find((s) => s.nzo_id === nzoId);
    if (queued) return { status: String(queued.status), storage: '', failMessage: '' };
    const history = await this.call(this.url({ mode: 'history', nzo_ids: nzoId, limit: '0' }));
    const hSlots = ((history.history as Record<string, unknown> | undefined)?.slots ?? []) as Record<string, unknown>[];
    const done = hSlots.find((s) => s.nzo_id === nzoId);
    if (!done) return undefined;
    return {
      status: String(done.status),
      storage: typeof done.storage === 'string' ? done.storage : '',
      failMessage: typeof done.fail_message === 'string' ? done.fail_message : '',
    };
  }
}

/**
 * The importer's hand-off for NZBs Spool cannot stream: with a fallback host set, the NZB goes there and the queue
 * item records where (the history then reports the job as that SABnzbd does). Without one the import fails as it
 * would have. A fallback that does not answer is an outage: the import is retried later, not failed.
 */
export function forwardTo(fallback: FallbackClient, importer: ImporterDomain, log: Logger): UnstreamableHandler {
  return async (item, err) => {
    if (!fallback.configured()) return undefined;
    try {
      const nzb = await importer.queue.nzb(item.id);
      const filename = `${path.basename(item.nzbPath.replace(/\\/g, '/')).replace(/\.nzb$/i, '')}.nzb`;
      const nzoId = await fallback.add(nzb, filename, item.category, item.priority);
      log.info('NZB forwarded to the fallback SABnzbd', { id: item.id, host: fallback.host(), nzo_id: nzoId });
      return { host: fallback.host(), nzoId, reason: err.message };
    } catch (e) {
      throw new ImportError(
        `${err.message}; forwarding it to the fallback SABnzbd failed: ${(e as Error).message}`,
        true,
      );
    }
  };
}
