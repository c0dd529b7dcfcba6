import { AppError } from '../errors/app-error.js';
import { MAX_NZB_BYTES } from '../importer/index.js';
import { isHttpUrl } from '../config/rules.js';

/** How long addurl waits for an indexer to send the whole NZB. */
export const FETCH_TIMEOUT_MS = 30_000;

/**
 * addurl (Prowlarr sends indexer links): fetches the NZB over http(s), at most 100 MB and 30 s, and names it from
 * Content-Disposition or the URL. Every failure is an error message the caller shows, never a crash.
 */
export async function fetchNzb(
  rawUrl: string,
  opts: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<{ bytes: Buffer; filename: string }> {
  const url = rawUrl.trim();
  if (!isHttpUrl(url)) throw new AppError('INVALID_PARAMETER', 'addurl needs an http or https URL in `name`');
  const maxBytes = opts.maxBytes ?? MAX_NZB_BYTES;
  const fail = (why: string) => new AppError('NZB_FETCH_FAILED', `Could not fetch the NZB from ${redact(url)}: ${why}`);
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? FETCH_TIMEOUT_MS), redirect: 'follow' });
  } catch (err) {
    throw fail(err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : (err as Error).message);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw fail(`HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw fail('it is larger than 100 MB');
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body ?? []) {
      total += (chunk as Uint8Array).byteLength;
      if (total > maxBytes) throw fail('it is larger than 100 MB');
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw fail(err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : (err as Error).message);
  }
  return { bytes: Buffer.concat(chunks), filename: nameOf(res.headers.get('content-disposition'), url) };
}

function nameOf(disposition: string | null, url: string): string {
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? '');
  let name = m ? decodeURIComponent(m[1]!) : (new URL(url).pathname.split('/').pop() ?? '');
  name = name.replace(/[\\/]/g, '_').trim();
  if (!name) name = 'download';
  return /\.nzb$/i.test(name) ? name : `${name}.nzb`;
}

/** Indexer links carry API keys in the query: never echo them. */
function redact(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}
