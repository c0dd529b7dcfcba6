/**
 * One request waiting in, or served by, the pool: what it asks, and what it learned of each provider so far (the
 * evidence the verdict rules in request-failures.ts read). Built only by createRequest, so every request starts
 * from the same state whichever door it came in by (body/stat, or a STAT batch).
 */
import { InvalidRequestError, NntpError, ProtocolError } from './errors.js';
import type { RequestPriority } from './types.js';

export interface RequestOptions {
  priority?: RequestPriority;
  signal?: AbortSignal;
  /** BODY only: decode into this buffer when it is large enough (the result's data is then a view of it). */
  into?: Buffer;
  /** Goes to the head of its lane: the article a reader waits for right now (the first one after a seek). */
  urgent?: boolean;
}

export interface PoolRequest {
  kind: 'body' | 'stat';
  messageId: string;
  priority: RequestPriority;
  into: Buffer | undefined;
  /** performance.now() of when it (last) started waiting for a slot: the metrics' acquire wait. */
  enqueuedAt: number;
  /** Providers that answered 430 (or served a damaged copy): never asked again for this request. */
  missingOn: Set<string>;
  /** Providers that failed it without saying anything about the article: skipped until every candidate did. */
  failedOn: Set<string>;
  attempts: number;
  lastError: NntpError | undefined;
  /** The last failure that was not evidence about the article (refused, timeout, auth ...). */
  lastOutage: NntpError | undefined;
  /** When it started waiting for a cooling provider (undefined when it is not). */
  coolingSince: number | undefined;
  settled: boolean;
  /** Settles the request once; later calls (an abort racing an answer) do nothing. */
  finish(err: Error | undefined, value?: unknown): void;
}

export function createRequest(
  kind: 'body' | 'stat',
  messageId: string,
  priority: RequestPriority,
  into: Buffer | undefined,
  enqueuedAt: number,
  onSettled: (err: Error | undefined, value: unknown) => void,
): PoolRequest {
  const req: PoolRequest = {
    kind,
    messageId,
    priority,
    into,
    enqueuedAt,
    missingOn: new Set(),
    failedOn: new Set(),
    attempts: 0,
    lastError: undefined,
    lastOutage: undefined,
    coolingSince: undefined,
    settled: false,
    finish(err, value) {
      if (req.settled) return;
      req.settled = true;
      onSettled(err, value);
    },
  };
  return req;
}

const MESSAGE_ID = /^<[^\s<>]{1,250}>$/;

/** The id in angle brackets as sent on the wire, or undefined when it cannot be one. */
export function normalizeMessageId(raw: string): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const t = raw.trim();
  const id = t.startsWith('<') ? t : `<${t}>`;
  return MESSAGE_ID.test(id) ? id : undefined;
}

export const invalidMessageId = (raw: unknown): InvalidRequestError =>
  new InvalidRequestError(`Invalid message id: ${String(raw).slice(0, 80)}`);

/** Anything a command rejected with, as the pool's typed error (a non-NNTP error is the server's garbage). */
export const asNntpError = (err: unknown): NntpError =>
  err instanceof NntpError ? err : new ProtocolError(err instanceof Error ? err.message : String(err));
