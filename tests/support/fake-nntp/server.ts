/**
 * A stateful, strict in-process NNTP server for fault injection. Articles are stored as encoded bodies; each
 * message id can be given a behaviour (missing, dropped mid-body, hanging, wrong CRC, garbage...). It counts
 * connections and commands so tests can assert on limits, and records any command it does not implement.
 */
import net from 'node:net';
import tls from 'node:tls';

export type ArticleBehaviour =
  | 'ok'
  /** 430 No such article. */
  | 'missing'
  /** Send half the body, then destroy the socket. */
  | 'drop-mid-body'
  /** Like drop-mid-body the first time, then behave ('ok'). */
  | 'drop-once'
  /** Never answer the command (and so nothing after it on that connection). */
  | 'hang'
  /** Send the status line and part of the body, then go silent. */
  | 'hang-mid-body'
  /** A status line that is not NNTP. */
  | 'garbage-status'
  /** 222, then one endless line without CR LF (until the client gives up). */
  | 'oversized-line'
  /** 222, then the body cut short and terminated early with ".". */
  | 'truncated';

export interface FakeNntpOptions {
  /** When set, AUTHINFO USER/PASS with these values is required before BODY/STAT/HEAD. */
  username?: string;
  password?: string;
  /** The greeting line; e.g. '502 Service unavailable' to refuse everyone (a capacity text: `connectionCap`). */
  greeting?: string;
  /** Accept TCP connections but never send a greeting. */
  silent?: boolean;
  /** Delay before each answer. */
  latencyMs?: number;
  /**
   * Answer every command after authentication with these bytes instead (hostile-server fuzzing); 'close' drops the
   * connection, undefined falls back to normal behaviour.
   */
  chaos?: (line: string) => Buffer | 'close' | undefined;
  /** Drop a connection that has seen no traffic for this long (as providers do with idle readers). */
  idleTimeoutMs?: number;
  /** Serve implicit TLS (as on port 563) with this key and certificate (see certs.ts). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /**
   * An account's connection cap: `max` sessions at once (counted from a good greeting, or from an accepted AUTHINFO
   * PASS with `at: 'auth'`); the next is answered `reply` (default '481 Too many connections') and closed. Tests may
   * change `max` while the server runs (another app letting go of connections).
   */
  connectionCap?: { max: number; at: 'greeting' | 'auth'; reply?: string };
}

export interface FakeNntpStats {
  connections: number;
  activeConnections: number;
  maxActiveConnections: number;
  commands: Record<string, number>;
  /** Most commands one connection had received and not yet answered (how deep the client pipelined). */
  maxPipelined: number;
  /** Connections this server dropped for being idle. */
  idleDrops: number;
  /** TLS handshakes that failed (the client refused our certificate, or spoke plain text). */
  tlsFailures: number;
  /** TLS connections that resumed an earlier session instead of a full handshake. */
  tlsResumed: number;
  /** Commands the fake does not implement (a test should expect this empty). */
  unexpected: string[];
  /** Connections refused over `connectionCap`, and the most sessions admitted at once under it. */
  capRefusals: number;
  maxAdmitted: number;
  /** Message id of each BODY answered → the ordinal (1-based, in order of acceptance) of the connection it came on. */
  bodyConnection: Record<string, number>;
}

export class FakeNntpServer {
  readonly host = '127.0.0.1';
  port = 0;
  readonly stats: FakeNntpStats = {
    connections: 0,
    activeConnections: 0,
    maxActiveConnections: 0,
    commands: {},
    unexpected: [],
    maxPipelined: 0,
    idleDrops: 0,
    tlsFailures: 0,
    tlsResumed: 0,
    capRefusals: 0,
    maxAdmitted: 0,
    bodyConnection: {},
  };
  /** Sessions holding a place under `connectionCap` now. */
  private admitted = 0;
  private readonly articles = new Map<string, Buffer>();
  private readonly behaviours = new Map<string, ArticleBehaviour>();
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  private constructor(public options: FakeNntpOptions) {
    if (options.tls) {
      const secure = tls.createServer({ key: options.tls.key, cert: options.tls.cert }, (s) => this.accept(s));
      secure.on('tlsClientError', () => this.stats.tlsFailures++);
      this.server = secure;
    } else this.server = net.createServer((s) => this.accept(s));
  }

  /** Listens on `port` (0: a free one; a given one: a server coming up where a provider already points). */
  static async start(options: FakeNntpOptions = {}, port = 0): Promise<FakeNntpServer> {
    const fake = new FakeNntpServer(options);
    await new Promise<void>((resolve) => fake.server.listen(port, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as net.AddressInfo).port;
    return fake;
  }

  /** Store an article body (dot-stuffed, CRLF lines, without the final "."). */
  addArticle(messageId: string, body: Buffer, behaviour: ArticleBehaviour = 'ok'): void {
    const id = bracket(messageId);
    this.articles.set(id, body);
    this.behaviours.set(id, behaviour);
  }

  setBehaviour(messageId: string, behaviour: ArticleBehaviour): void {
    this.behaviours.set(bracket(messageId), behaviour);
  }

  /** Drop every open client connection (as a provider restart would). */
  dropAll(): void {
    for (const s of this.sockets) s.destroy();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    this.sockets.add(socket);
    this.stats.connections++;
    if (socket instanceof tls.TLSSocket && socket.isSessionReused()) this.stats.tlsResumed++;
    socket.setNoDelay(true); // answers leave at once (Nagle would hold a status line behind an unacked tail)
    this.stats.activeConnections++;
    this.stats.maxActiveConnections = Math.max(this.stats.maxActiveConnections, this.stats.activeConnections);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.stats.activeConnections--;
    });
    socket.on('error', () => undefined);
    if (this.options.silent) return;
    if (this.options.connectionCap?.at === 'greeting' && !this.admit(socket)) return;
    socket.write((this.options.greeting ?? '200 fake NNTP ready') + '\r\n');
    if (/^[45]/.test(this.options.greeting ?? '')) {
      socket.end();
      return;
    }
    const session = { authed: !this.options.username, user: '', hung: false, ordinal: this.stats.connections };
    let pending = Buffer.alloc(0);
    let chain = Promise.resolve();
    let unanswered = 0;
    if (this.options.idleTimeoutMs) {
      socket.setTimeout(this.options.idleTimeoutMs, () => {
        this.stats.idleDrops++;
        socket.destroy();
      });
    }
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (let nl = pending.indexOf('\r\n'); nl >= 0; nl = pending.indexOf('\r\n')) {
        const line = pending.subarray(0, nl).toString('latin1');
        pending = pending.subarray(nl + 2);
        this.stats.maxPipelined = Math.max(this.stats.maxPipelined, ++unanswered);
        chain = chain.then(() => this.answer(socket, session, line)).finally(() => unanswered--);
      }
    });
  }

  private async answer(
    socket: net.Socket,
    session: { authed: boolean; user: string; hung: boolean; ordinal: number },
    line: string,
  ): Promise<void> {
    if (session.hung || socket.destroyed) return;
    if (this.options.latencyMs) await new Promise((r) => setTimeout(r, this.options.latencyMs));
    const chaos = session.authed && !line.startsWith('AUTHINFO') ? this.options.chaos?.(line) : undefined;
    if (chaos === 'close') return void socket.destroy();
    if (chaos) return void socket.write(chaos);
    const [verbRaw = '', ...args] = line.split(' ');
    const verb = verbRaw.toUpperCase();
    this.stats.commands[verb] = (this.stats.commands[verb] ?? 0) + 1;
    const send = (text: string) => socket.write(text + '\r\n');
    switch (verb) {
      case 'AUTHINFO': {
        const [kind = '', value = ''] = args;
        if (kind.toUpperCase() === 'USER') {
          session.user = value;
          return void send('381 Password required');
        }
        const ok = session.user === this.options.username && value === this.options.password;
        if (ok && this.options.connectionCap?.at === 'auth' && !this.admit(socket)) return;
        session.authed = ok;
        return void send(ok ? '281 Authentication accepted' : '481 Authentication failed');
      }
      case 'DATE':
        return void send('111 20250101000000');
      case 'QUIT':
        send('205 bye');
        socket.end();
        return;
      case 'MODE':
        return void send('200 reader');
      case 'BODY':
      case 'STAT':
      case 'HEAD':
        if (!session.authed) return void send('480 Authentication required');
        return this.article(socket, session, verb, args[0] ?? '');
      default:
        this.stats.unexpected.push(line);
        return void send('500 What?');
    }
  }

  /** Takes a place under `connectionCap` for `socket` until it closes; false: refused and closed. */
  private admit(socket: net.Socket): boolean {
    const cap = this.options.connectionCap!;
    if (this.admitted >= cap.max) {
      this.stats.capRefusals++;
      socket.end((cap.reply ?? '481 Too many connections') + '\r\n');
      return false;
    }
    this.admitted++;
    this.stats.maxAdmitted = Math.max(this.stats.maxAdmitted, this.admitted);
    socket.on('close', () => this.admitted--);
    return true;
  }

  private article(socket: net.Socket, session: { hung: boolean; ordinal: number }, verb: string, id: string): void {
    if (verb === 'BODY') this.stats.bodyConnection[id] = session.ordinal;
    const body = this.articles.get(id);
    const behaviour = this.behaviours.get(id) ?? 'ok';
    const send = (text: string) => socket.write(text + '\r\n');
    if (!body || behaviour === 'missing') return void send('430 No Such Article Found');
    if (behaviour === 'hang') {
      session.hung = true;
      return;
    }
    if (behaviour === 'garbage-status') return void send('HTTP/1.1 200 OK whatever');
    if (verb === 'STAT') return void send(`223 0 ${id}`);
    if (verb === 'HEAD') return void socket.write(`221 0 ${id}\r\nMessage-ID: ${id}\r\nSubject: test\r\n.\r\n`);
    socket.write(`222 0 ${id}\r\n`);
    const half = body.subarray(0, Math.floor(body.length / 2));
    switch (behaviour) {
      case 'drop-once':
        this.behaviours.set(id, 'ok');
        socket.write(half, () => socket.destroy());
        return;
      case 'drop-mid-body':
        socket.write(half, () => socket.destroy());
        return;
      case 'hang-mid-body':
        socket.write(half);
        session.hung = true;
        return;
      case 'oversized-line':
        socket.write(Buffer.alloc(64 * 1024, 0x41));
        session.hung = true;
        return;
      case 'truncated':
        socket.write(Buffer.concat([half, Buffer.from('\r\n.\r\n')]));
        return;
      default:
        socket.write(Buffer.concat([body, Buffer.from('.\r\n')]));
    }
  }
}

function bracket(id: string): string {
  return id.startsWith('<') ? id : `<${id}>`;
}
