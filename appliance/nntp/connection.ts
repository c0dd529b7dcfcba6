/**
 * One NNTP connection: connect (TCP or TLS), greeting, AUTHINFO, then pipelined commands answered in order.
 * Multi-line answers are handed chunk by chunk to a BlockSink (the yEnc decoder for BODY) without copying.
 * Anything unexpected from the server fails the connection with a typed error; it never throws out of a handler.
 */
import net from 'node:net';
import tls from 'node:tls';
import {
  ArticleMissingError,
  AuthError,
  ConnectionResetError,
  NntpError,
  ProtocolError,
  ProviderRefusedError,
  TimeoutError,
  TlsError,
  capacityRefusal,
} from './errors.js';
import {
  DEFAULT_DECODE_LIMITS,
  YencArticleDecoder,
  type BlockSink,
  type DecodeLimits,
  type DecodedPart,
} from './article-decoder.js';
import { DiscardSink, TextBlockSink } from './block-sinks.js';
import { LineReader } from './line-reader.js';
import { QUICK_ACK_TAIL_BYTES, quickAck, quickAckState } from './tcp-quickack.js';
import { yencBackend, type YencBackend } from './yenc-backend.js';

export interface ConnectionOptions {
  host: string;
  port: number;
  tls: boolean;
  insecureTls: boolean;
  username: string;
  password: string;
  /** Extra certificate authorities (PEM) trusted besides the system store, for providers with a private CA. */
  tlsCa?: string | Buffer | Array<string | Buffer>;
  connectTimeoutMs?: number;
  /** No byte for this long while a command is outstanding fails the connection (a stalled article). */
  stallTimeoutMs?: number;
  /** No command for this long closes the connection politely. */
  idleTimeoutMs?: number;
  limits?: DecodeLimits;
  backend?: YencBackend;
  /** Size of the read buffer the socket reads into (shared by every connection using the same size). */
  readBufferBytes?: number;
  /** Called with every socket chunk size and every round-trip sample, for metrics. */
  onBytes?: (n: number) => void;
  onRtt?: (ms: number) => void;
  /** Called once per BODY with its wire bytes and the ms from its status line to its end (the transfer). */
  onTransfer?: (wireBytes: number, ms: number) => void;
  /** A TLS session from an earlier connection to the same provider: resumed, saving the full handshake. */
  tlsSession?: Buffer;
  /** Called with each TLS session ticket the server issues, to resume the next connection. */
  onTlsSession?: (session: Buffer) => void;
  /** TCP_QUICKACK after each batch of commands (tcp-quickack.ts); default on. Off only to measure the difference. */
  quickAck?: boolean;
}

type StatusOutcome<T> = { sink: BlockSink<T> } | { value: T } | { error: Error };

interface Pending<T = unknown> {
  command: string;
  onStatus(code: number, text: string): StatusOutcome<T>;
  sink?: BlockSink<T>;
  resolve(value: T): void;
  reject(err: Error): void;
  sentAt: number;
  timeRtt: boolean;
}

const DEFAULT_READ_BUFFER = 256 * 1024;
const readBuffers = new Map<number, Buffer>();

function sharedReadBuffer(size: number): Buffer {
  let buf = readBuffers.get(size);
  if (!buf) readBuffers.set(size, (buf = Buffer.allocUnsafeSlow(size)));
  return buf;
}

const STATUS_RE = /^(\d{3})(?:[ \t](.*))?$/;

export function statusError(code: number, text: string, messageId?: string): NntpError {
  if ((code === 430 || code === 423) && messageId) return new ArticleMissingError(messageId, code);
  if (code === 480 || code === 481 || code === 482)
    return new AuthError(`Authentication failed: ${code} ${text}`, code);
  if (code === 400 || code === 502) return new ProviderRefusedError(`Provider refused: ${code} ${text}`, code);
  return new ProtocolError(`Unexpected response ${code} ${text}`.slice(0, 200), code);
}

export class NntpConnection {
  private socket!: net.Socket;
  private readonly queue: Pending[] = [];
  private readonly statusReader: LineReader;
  private current: Pending | undefined;
  private closed = false;
  private closeError: Error | undefined;
  private readonly closeWaiters: Array<() => void> = [];
  private readonly limits: DecodeLimits;
  private readonly backend: YencBackend;
  private readonly scratch = { buf: Buffer.alloc(0) };
  private corked = false;
  private readonly quickAcks: boolean;
  /** Greeting and AUTHINFO done: round trips are timed from here on (a handshake or a password check is no RTT). */
  private ready = false;
  /** Called once when the connection is gone (by error, timeout, QUIT or the server). */
  onClose: ((err: Error | undefined) => void) | undefined;
  bytesReceived = 0;
  /** performance.now() when the last command (any, keepalives included) was sent. */
  lastCommandAt = performance.now();

  private constructor(private readonly opts: ConnectionOptions) {
    this.limits = opts.limits ?? DEFAULT_DECODE_LIMITS;
    this.backend = opts.backend ?? yencBackend();
    this.statusReader = new LineReader(this.limits.maxLineBytes);
    this.quickAcks = opts.quickAck ?? true;
  }

  /** Connects, reads the greeting and authenticates; rejects with a typed error within connectTimeoutMs. */
  static async open(opts: ConnectionOptions): Promise<NntpConnection> {
    const conn = new NntpConnection(opts);
    const timeoutMs = opts.connectTimeoutMs ?? 15_000;
    const timer = setTimeout(
      () => conn.destroy(new TimeoutError(`Connecting to ${opts.host}:${opts.port} took longer than ${timeoutMs} ms`)),
      timeoutMs,
    );
    try {
      await conn.start();
      return conn;
    } catch (err) {
      conn.destroy(err as Error);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  get inflight(): number {
    return this.queue.length;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The kernel's TCP_QUICKACK flag on this socket now: 1 outside delayed-ACK mode (tcp-quickack.ts; tests). */
  get quickAckState(): number | undefined {
    return this.socket ? quickAckState(this.socket) : undefined;
  }

  /**
   * When the provider's TLS certificate stops being valid (ms since the epoch) and who it names, or undefined on
   * plain TCP (the operator's diagnostics warn before it expires: appliance/diagnostics/).
   */
  get peerCertificate(): { validTo: number; subject: string; issuer: string } | undefined {
    if (!(this.socket instanceof tls.TLSSocket)) return undefined;
    const cert = this.socket.getPeerCertificate();
    if (!cert || !cert.valid_to) return undefined;
    const cn = (name: tls.Certificate | undefined) => [name?.CN ?? ''].flat().join(', ');
    return { validTo: Date.parse(cert.valid_to), subject: cn(cert.subject), issuer: cn(cert.issuer) };
  }

  /** Whether the TLS handshake resumed an earlier session (false for plain TCP). */
  get tlsSessionReused(): boolean {
    return this.socket instanceof tls.TLSSocket && this.socket.isSessionReused();
  }

  private async start(): Promise<void> {
    const { host, port } = this.opts;
    const greeting = this.expect<void>('(greeting)', (code, text) => {
      if (code === 200 || code === 201) return { value: undefined };
      const capacity = capacityRefusal(code, text);
      if (capacity) return { error: capacity };
      if (code === 400 || code === 502)
        return { error: new ProviderRefusedError(`Provider refused: ${code} ${text}`, code) };
      return { error: new ProtocolError(`Unexpected greeting ${code} ${text}`.slice(0, 200), code) };
    });
    let handshaking = false;
    if (this.opts.tls) {
      const extra = this.opts.tlsCa;
      // Node's tls.connect honours `onread` (documented), @types/node does not list it.
      const options: tls.ConnectionOptions & Pick<net.TcpSocketConnectOpts, 'onread'> = {
        host,
        port,
        onread: this.onread(),
        servername: net.isIP(host) ? undefined : host,
        rejectUnauthorized: !this.opts.insecureTls,
        secureContext: extra === undefined ? undefined : contextTrusting(extra),
        session: this.opts.tlsSession,
      };
      const secure = tls.connect(options);
      this.socket = secure;
      // TLS 1.3 tickets arrive after the handshake; TLS 1.2 sessions right at it. Either one resumes the next one.
      secure.on('session', (session: Buffer) => this.opts.onTlsSession?.(session));
      handshaking = true;
      this.socket.once('secureConnect', () => (handshaking = false));
    } else {
      this.socket = net.connect({ host, port, onread: this.onread() });
    }
    this.socket.setNoDelay(true);
    this.socket.on('error', (err) =>
      this.destroy(handshaking ? tlsError(err, host, port, this.opts.insecureTls) : socketError(err)),
    );
    this.socket.on('close', () =>
      this.destroy(
        handshaking
          ? new TlsError(`TLS handshake with ${host}:${port} failed: the server closed the connection`)
          : new ConnectionResetError('Connection closed by the server'),
      ),
    );
    this.socket.on('timeout', () => this.onTimeout());
    this.armTimeout();
    await greeting;
    if (this.opts.username) await this.authenticate();
    this.ready = true;
  }

  /**
   * Reads go straight into one reused buffer instead of a fresh 64 KiB Buffer per read pushed through a Readable:
   * less garbage, and a larger buffer lets one read syscall take more of a fast stream. Safe to share between
   * connections because every chunk is consumed synchronously in onData (decoded, scanned or copied) and never kept.
   */
  private onread(): { buffer: Buffer; callback: (n: number, buf: Buffer) => boolean } {
    return {
      buffer: sharedReadBuffer(this.opts.readBufferBytes ?? DEFAULT_READ_BUFFER),
      callback: (n, buf) => {
        this.onData(buf.subarray(0, n));
        return true;
      },
    };
  }

  private async authenticate(): Promise<void> {
    const authStatus = (code: number, text: string): StatusOutcome<number> =>
      code === 281 || code === 381
        ? { value: code }
        : { error: capacityRefusal(code, text) ?? new AuthError(`Authentication failed: ${code} ${text}`, code) };
    const user = await this.send(`AUTHINFO USER ${this.opts.username}`, authStatus);
    if (user === 281) return;
    const pass = await this.send(`AUTHINFO PASS ${this.opts.password}`, authStatus);
    if (pass !== 281) throw new AuthError(`Authentication failed: password not accepted (${pass})`, pass);
  }

  /** BODY <id>, decoded as yEnc while it arrives. `into` is used as output when large enough. */
  body(messageId: string, into?: Buffer): Promise<DecodedPart & { wireBytes: number }> {
    let wire = 0;
    return this.send(`BODY ${messageId}`, (code, text) => {
      if (code !== 222) return { error: statusError(code, text, messageId) };
      const decoder = new YencArticleDecoder(this.backend, this.limits, this.scratch, into);
      const started = performance.now();
      return {
        sink: {
          feed: (chunk, pos) => {
            const end = decoder.feed(chunk, pos);
            wire += (end < 0 ? chunk.length : end) - pos;
            // The article's last stretch, with nothing asked after it: a Nagle server holds its tail until this
            // is ACKed (tcp-quickack.ts). With a command behind it, the next reply fills the segment instead.
            if (end < 0 && this.quickAcks && this.queue.length === 1 && decoder.remaining < QUICK_ACK_TAIL_BYTES)
              quickAck(this.socket);
            return end;
          },
          result: () => {
            this.opts.onTransfer?.(wire, performance.now() - started);
            return { ...decoder.result(), wireBytes: wire };
          },
        },
      };
    });
  }

  /** BODY <id> read to its end without decoding; resolves with the number of bytes in the body. */
  bodyRaw(messageId: string): Promise<number> {
    return this.send(`BODY ${messageId}`, (code, text) =>
      code === 222 ? { sink: new DiscardSink() } : { error: statusError(code, text, messageId) },
    );
  }

  /** STAT <id>: resolves when the provider has it, rejects with ArticleMissingError when not. */
  stat(messageId: string): Promise<true> {
    return this.send<true>(`STAT ${messageId}`, (code, text) =>
      code === 223 ? { value: true as const } : { error: statusError(code, text, messageId) },
    );
  }

  head(messageId: string): Promise<string[]> {
    return this.send(`HEAD ${messageId}`, (code, text) =>
      code === 221
        ? { sink: new TextBlockSink(this.limits.maxLineBytes, 256 * 1024) }
        : { error: statusError(code, text, messageId) },
    );
  }

  /** DATE: the server's clock (yyyymmddhhmmss); also a cheap keepalive. */
  date(): Promise<string> {
    return this.send<string>('DATE', (code, text) =>
      code === 111 ? { value: text.trim() } : { error: statusError(code, text) },
    );
  }

  /** QUIT politely and wait for the socket to close; never rejects. */
  async quit(): Promise<void> {
    if (this.closed) return;
    const done = new Promise<void>((resolve) => this.closeWaiters.push(resolve));
    this.send('QUIT', (code) => ({ value: code })).then(
      () => this.socket.end(),
      () => undefined,
    );
    const timer = setTimeout(() => this.destroy(undefined), 2000);
    await done;
    clearTimeout(timer);
  }

  /** Fail every outstanding command and close the socket now. */
  destroy(err: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    this.closeError = err;
    this.socket?.destroy();
    const failure = err ?? new ConnectionResetError('Connection closed');
    for (const p of this.queue.splice(0)) p.reject(failure);
    this.current = undefined;
    this.onClose?.(err);
    for (const w of this.closeWaiters.splice(0)) w();
  }

  get lastError(): Error | undefined {
    return this.closeError;
  }

  private send<T>(command: string, onStatus: (code: number, text: string) => StatusOutcome<T>): Promise<T> {
    if (this.closed) return Promise.reject(this.closeError ?? new ConnectionResetError('Connection is closed'));
    // eslint-disable-next-line no-control-regex
    if (/[\r\n\u0000]/.test(command)) return Promise.reject(new ProtocolError('Command contains a line break or NUL'));
    const promise = this.expect(command, onStatus);
    this.lastCommandAt = performance.now();
    // Commands issued in the same tick (a pipeline being filled) leave in one segment and one syscall.
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
        // The commands have left: ACK the responses at once, not after the delayed-ACK timer (tcp-quickack.ts).
        if (this.quickAcks) quickAck(this.socket);
      });
    }
    this.socket.write(command + '\r\n');
    return promise;
  }

  private expect<T>(command: string, onStatus: (code: number, text: string) => StatusOutcome<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timeRtt = this.ready && this.queue.length === 0;
      this.queue.push({ command, onStatus, resolve, reject, sentAt: performance.now(), timeRtt } as Pending);
      if (this.queue.length === 1) this.armTimeout();
    });
  }

  private armTimeout(): void {
    if (!this.socket) return;
    this.socket.setTimeout(
      this.queue.length > 0 ? (this.opts.stallTimeoutMs ?? 30_000) : (this.opts.idleTimeoutMs ?? 60_000),
    );
  }

  private onTimeout(): void {
    if (this.queue.length > 0) {
      const head = this.queue[0]!;
      this.destroy(
        new TimeoutError(`No data for ${this.opts.stallTimeoutMs ?? 30_000} ms waiting for ${redact(head.command)}`),
      );
    } else {
      void this.quit();
    }
  }

  private onData(chunk: Buffer): void {
    this.bytesReceived += chunk.length;
    this.opts.onBytes?.(chunk.length);
    let pos = 0;
    try {
      while (pos < chunk.length && !this.closed) {
        if (this.current) {
          const end = this.current.sink!.feed(chunk, pos);
          if (end < 0) return;
          pos = end;
          const done = this.current;
          this.finish(done, () => ({ value: done.sink!.result() }));
          continue;
        }
        const head = this.queue[0];
        if (!head) throw new ProtocolError('Server sent data nobody asked for');
        const got = this.statusReader.read(chunk, pos);
        if (!got) return;
        pos = got.next;
        const m = STATUS_RE.exec(got.line);
        if (!m) throw new ProtocolError(`Garbage instead of a status line: ${JSON.stringify(got.line.slice(0, 60))}`);
        const code = Number(m[1]);
        if (head.timeRtt) this.opts.onRtt?.(performance.now() - head.sentAt);
        const outcome = head.onStatus(code, m[2] ?? '');
        if ('sink' in outcome) {
          head.sink = outcome.sink;
          this.current = head;
        } else this.finish(head, () => outcome);
        if (code === 400) throw new ProviderRefusedError(`Provider closing the connection: ${m[2] ?? ''}`, 400);
      }
    } catch (err) {
      this.destroy(err instanceof Error ? err : new ProtocolError(String(err)));
    }
  }

  private finish(p: Pending, outcome: () => StatusOutcome<unknown>): void {
    this.queue.shift();
    this.current = undefined;
    this.armTimeout();
    let o: StatusOutcome<unknown>;
    try {
      o = outcome();
    } catch (err) {
      p.reject(err as Error);
      return;
    }
    if ('error' in o) p.reject(o.error);
    else if ('value' in o) p.resolve(o.value);
  }
}

function redact(command: string): string {
  return command.startsWith('AUTHINFO PASS') ? 'AUTHINFO PASS ****' : command;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/** A failure before the TLS handshake completed, said in words a provider form can show. */
function tlsError(
  err: Error & { code?: string; reason?: string },
  host: string,
  port: number,
  insecure: boolean,
): NntpError {
  if (err instanceof NntpError) return err;
  const code = err.code ?? '';
  const where = `${host}:${port}`;
  if (/CERT|SIGNATURE|ALTNAME|ISSUER/.test(code)) {
    const hint = insecure
      ? ''
      : '; if the provider uses a private chain, set its CA certificate, else turn on Insecure TLS to skip certificate checks';
    return new TlsError(`TLS certificate of ${where} is not trusted: ${err.message} (${code})${hint}`, code);
  }
  // Network failures before any TLS byte came back are not about TLS; keep them retryable.
  if (NETWORK_CODES.has(code)) return socketError(err);
  // OpenSSL messages carry source paths; its short reason ("wrong version number") is what a person needs.
  const reason = err.reason ?? err.message.split('\n')[0]!;
  return new TlsError(
    `TLS handshake with ${where} failed: ${reason}${code ? ` (${code})` : ''}; is this the provider's TLS port?`,
    code || undefined,
  );
}

function socketError(err: Error & { code?: string }): NntpError {
  if (err instanceof NntpError) return err;
  const msg = err.code ? `${err.code}: ${err.message}` : err.message;
  return new ConnectionResetError(msg);
}

/**
 * One TLS context per set of extra CAs, shared by every connection that trusts them: building it parses the whole
 * system store (about 140 certificates), 40 ms of CPU per connection on the benchmark VM when done per connect.
 */
const contexts = new Map<string, tls.SecureContext>();
function contextTrusting(extra: string | Buffer | Array<string | Buffer>): tls.SecureContext {
  const pems = (Array.isArray(extra) ? extra : [extra]).map(String);
  const key = pems.join('\n');
  let ctx = contexts.get(key);
  if (!ctx) {
    if (contexts.size >= 8) contexts.clear(); // a few providers' CAs at most; never grows without bound
    ctx = tls.createSecureContext({ ca: [...tls.rootCertificates, ...pems] });
    contexts.set(key, ctx);
  }
  return ctx;
}
