import type { HttpResponse as UwsResponse, us_socket_context_t } from 'uws-pack';
import { statusLine } from './status-text.js';

export interface CookieOptions {
  maxAgeSeconds?: number;
  path?: string;
  httpOnly?: boolean;
  sameSite?: 'Strict' | 'Lax';
  secure?: boolean;
}

/**
 * The only place that writes to a uWS response. Every write is corked; after an abort every call is a no-op,
 * so domain code never has to know whether the client is still there.
 */
export class Reply {
  aborted = false;
  sent = false;
  /**
   * Bytes of the streamed body the socket has taken so far (`stream`): what the kernel accepted, which is what the
   * client read plus what its connection holds unread (docs/streaming.md, "What an unproven GET may fetch").
   */
  bodyTaken = 0;
  private statusCode = 200;
  private readonly headers: [string, string][] = [];
  private readonly abortHandlers: (() => void)[] = [];

  constructor(private readonly res: UwsResponse) {
    res.onAborted(() => {
      this.aborted = true;
      for (const h of this.abortHandlers.splice(0)) h();
    });
  }

  onAborted(handler: () => void): void {
    if (this.aborted) handler();
    else this.abortHandlers.push(handler);
  }

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  /** Refuses CR, LF and NUL: a value built from input must never end the header and start another. */
  header(name: string, value: string): this {
    // eslint-disable-next-line no-control-regex
    if (/[\r\n\u0000]/.test(name) || /[\r\n\u0000]/.test(value))
      throw new Error(`Header ${JSON.stringify(name)} has a line break or NUL in its name or value`);
    this.headers.push([name, value]);
    return this;
  }

  /** Like `header`, but replaces any value already set under that name (case-insensitive). */
  setHeader(name: string, value: string): this {
    const lower = name.toLowerCase();
    for (let i = this.headers.length - 1; i >= 0; i--)
      if ((this.headers[i] as [string, string])[0].toLowerCase() === lower) this.headers.splice(i, 1);
    return this.header(name, value);
  }

  cookie(name: string, value: string, opts: CookieOptions = {}): this {
    const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${opts.path ?? '/'}`];
    if (opts.maxAgeSeconds !== undefined) parts.push(`Max-Age=${opts.maxAgeSeconds}`);
    if (opts.httpOnly !== false) parts.push('HttpOnly');
    parts.push(`SameSite=${opts.sameSite ?? 'Lax'}`);
    if (opts.secure) parts.push('Secure');
    return this.header('Set-Cookie', parts.join('; '));
  }

  /**
   * Turns the request into a WebSocket (the live channel, live.ts): the handshake's key, protocol and extensions as
   * the upgrade request carried them. A no-op after an abort or an answer.
   */
  upgrade<T>(userData: T, key: string, protocol: string, extensions: string, context: us_socket_context_t): void {
    if (this.aborted || this.sent) return;
    this.sent = true;
    this.res.cork(() => this.res.upgrade(userData, key, protocol, extensions, context));
  }

  json(status: number, body: unknown): void {
    this.status(status).send(JSON.stringify(body), 'application/json; charset=utf-8');
  }

  /** Sends a whole body. HEAD requests pass `headOnly` to send headers with the real length and no bytes. */
  send(body: string | Uint8Array, contentType?: string, headOnly = false): void {
    if (this.aborted || this.sent) return;
    this.sent = true;
    if (contentType) this.headers.push(['Content-Type', contentType]);
    this.res.cork(() => {
      this.writeHead();
      if (headOnly) this.res.endWithoutBody(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      else this.res.end(body);
    });
  }

  /** Headers only, announcing `contentLength` bytes that are not sent (HEAD of a large or streamed resource). */
  head(contentLength: number): void {
    if (this.aborted || this.sent) return;
    this.sent = true;
    this.res.cork(() => {
      this.writeHead();
      this.res.endWithoutBody(contentLength);
    });
  }

  /** Headers only, no body (204, 304, HEAD without known length). */
  end(): void {
    if (this.aborted || this.sent) return;
    this.sent = true;
    this.res.cork(() => {
      this.writeHead();
      this.res.endWithoutBody(0);
    });
  }

  /**
   * Streams `totalSize` bytes from an async source with backpressure: waits for `onWritable` when the socket
   * buffer is full. Resolves when everything is written or the client is gone (returns false then).
   */
  async stream(source: AsyncIterable<Uint8Array>, totalSize: number): Promise<boolean> {
    if (this.aborted || this.sent) return false;
    this.sent = true;
    this.res.cork(() => this.writeHead());
    let written = 0;
    for await (const chunk of source) {
      if (this.aborted) return false;
      if (!(await this.writeChunk(chunk, totalSize))) return false;
      written += chunk.byteLength;
      this.bodyTaken = written;
      if (written >= totalSize) break;
    }
    if (!this.aborted && written < totalSize) {
      // The source ended early: we cannot honour Content-Length, so cut the connection rather than lie.
      this.res.close();
      return false;
    }
    return !this.aborted;
  }

  /** Writes one chunk; resolves once uWS has taken all of it (false if the client left first). */
  private writeChunk(chunk: Uint8Array, totalSize: number): Promise<boolean> {
    return new Promise((resolve) => {
      let ok = false;
      let done = false;
      const startOffset = this.res.getWriteOffset();
      this.res.cork(() => {
        [ok, done] = this.res.tryEnd(chunk, totalSize);
      });
      if (ok || done) {
        resolve(true);
        return;
      }
      // Backpressure: resend the remainder of this chunk from where the socket stopped.
      const onAbort = () => resolve(false);
      this.abortHandlers.push(onAbort);
      const takenBefore = this.bodyTaken;
      this.bodyTaken = takenBefore + this.res.getWriteOffset() - startOffset;
      this.res.onWritable((offset) => {
        const sent = offset - startOffset;
        const [ok2, done2] = this.res.tryEnd(chunk.subarray(sent), totalSize);
        // the whole chunk once taken (the response may be over: not to be touched again), else as far as it went
        this.bodyTaken = takenBefore + (ok2 || done2 ? chunk.byteLength : this.res.getWriteOffset() - startOffset);
        if (ok2 || done2) {
          const i = this.abortHandlers.indexOf(onAbort);
          if (i >= 0) this.abortHandlers.splice(i, 1);
          // Continue outside uWS's writable dispatch: a next chunk written (and a new onWritable registered) from
          // a microtask of this callback is lost when uWS clears the handler on return, stalling the stream.
          setImmediate(() => resolve(true));
        }
        return ok2;
      });
    });
  }

  close(): void {
    if (!this.aborted) {
      this.aborted = true;
      this.res.close();
    }
  }

  private writeHead(): void {
    this.res.writeStatus(statusLine(this.statusCode));
    for (const [k, v] of this.headers) this.res.writeHeader(k, v);
  }
}
