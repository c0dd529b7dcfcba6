import { formatRequest, type TargetAddress } from './format.js';
import type { Notice } from './notice.js';

/** Delivers one notice to one target; resolves when the target took it, rejects with its error otherwise. */
export type Sender = (target: TargetAddress, notice: Notice) => Promise<void>;

/**
 * The real sender: one POST with Node's fetch, given up after `timeoutMs` (AbortSignal.timeout). Any 2xx is
 * success; anything else rejects with the status and the start of the answer's body.
 */
export function httpSender(timeoutMs: () => number): Sender {
  return async (target, notice) => {
    const req = formatRequest(target, notice);
    let res: Response;
    try {
      res = await fetch(req.url, {
        method: 'POST',
        headers: req.headers,
        body: req.body,
        signal: AbortSignal.timeout(timeoutMs()),
        redirect: 'error',
      });
    } catch (err) {
      throw new Error(reason(err));
    }
    if (res.ok) {
      await res.body?.cancel().catch(() => undefined);
      return;
    }
    const text = (await res.text().catch(() => '')).trim().slice(0, 200);
    throw new Error(`HTTP ${res.status}${text ? `: ${text}` : ''}`);
  };
}

function reason(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'No answer in time';
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code) return `Could not connect: ${cause.code}`;
  return err instanceof Error ? err.message : String(err);
}
