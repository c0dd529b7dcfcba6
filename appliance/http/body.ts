import { Readable } from 'node:stream';
import type { HttpResponse as UwsResponse } from 'uws-pack';
import { AppError } from '../errors/app-error.js';

/**
 * The request body as a Node stream, fed by uWS `onData`. uWS hands out chunks that are only valid inside the
 * callback, so each one is copied. When the consumer falls behind, the socket is paused (and resumed only if it
 * was paused: resuming an unpaused response stalls `Expect: 100-continue` uploads:
 * docs/architecture.md, "uWS traps").
 */
export class BodyStream extends Readable {
  private paused = false;
  private received = 0;
  private ended = false;

  constructor(
    private readonly res: UwsResponse,
    /** Declared Content-Length, or null when chunked. */
    readonly declaredLength: number | null,
    private limit: number,
  ) {
    super({ highWaterMark: 1024 * 1024 });
    res.onData((chunk, isLast) => this.onChunk(chunk, isLast));
  }

  /** Lower the limit for this route (the router starts with the largest any route allows). */
  setLimit(limit: number): void {
    this.limit = limit;
    if (this.declaredLength !== null && this.declaredLength > limit) this.tooLarge();
  }

  get bytesReceived(): number {
    return this.received;
  }

  private onChunk(chunk: ArrayBuffer, isLast: boolean): void {
    if (this.destroyed || this.ended) return;
    this.received += chunk.byteLength;
    if (this.received > this.limit) {
      this.tooLarge();
      return;
    }
    const copy = Buffer.from(new Uint8Array(chunk).slice());
    const more = this.push(copy);
    if (isLast) {
      this.ended = true;
      this.push(null);
    } else if (!more && !this.paused) {
      this.paused = true;
      this.res.pause();
    }
  }

  private tooLarge(): void {
    this.destroy(new AppError('BODY_TOO_LARGE', `Request body exceeds the limit of ${this.limit} bytes`));
  }

  override _read(): void {
    if (this.paused) {
      this.paused = false;
      this.res.resume();
    }
  }

  /** Called by the responder when the client went away. */
  abort(): void {
    if (!this.ended) this.destroy(new AppError('CLIENT_CLOSED', 'Client closed the connection'));
  }
}

/** Reads the whole body into one buffer, refusing more than `limit` bytes. */
export async function readAll(body: BodyStream | null, limit: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  body.setLimit(limit);
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}
