/**
 * An emulated network link on loopback (the kernel here has no `netem` qdisc): a TCP proxy that holds every chunk
 * for half the chosen round trip in each direction, in order, optionally behind a bandwidth cap shared by all
 * connections (one link) or a cap per connection (a provider that limits each connection's rate, as many do).
 * It works at the TCP level, so TLS passes through untouched.
 *
 *   const link = await startDelayProxy({ target: { host, port }, rttMs: 20, bytesPerSec: 125e6 });
 *   // point the client at 127.0.0.1:link.port ... link.stats() ... await link.stop();
 *
 * Model (docs/performance.md, "Real-provider speed"):
 * - A new connection costs what a TCP handshake costs: the client's first bytes leave one round trip after it
 *   connected (SYN, SYN-ACK) and the server accepts half a round trip later, so a server that speaks first (NNTP,
 *   implicit TLS) is heard two round trips after the connect, as on a real link.
 * - Every chunk is due half a round trip after it arrived (plus its serialisation time under a cap). All chunks of
 *   one direction get the same delay, so arrival order is due order: one FIFO and one timer per direction for the
 *   whole proxy, and a timer that fires delivers every chunk due by then (writes corked per socket). The proxy
 *   costs a few timers per millisecond, not one per chunk.
 * - A connection keeps at most `windowBytes` in flight per direction (queued here or unread by the receiver), as a
 *   TCP window does: beyond it the sender is paused until half of it has been delivered.
 * - The proxy ACKs every read at once (TCP_QUICKACK, appliance/nntp/tcp-quickack.ts). It is a TCP endpoint, so its
 *   own kernel's delayed ACKs would otherwise hold the Nagle-held tail of a server's reply (INN's nnrpd over TLS)
 *   for 40 ms, a stall of the proxy and not of the link: Spool ACKs article tails at once on its own sockets, and
 *   a wire adds no delayed ACK. `quickAck: false` restores the proxy's kernel default (docs/performance.md).
 */
import net from 'node:net';
import { quickAck } from '../../appliance/nntp/tcp-quickack.js';

export interface DelayProxyOptions {
  target: { host: string; port: number };
  /** Round trip added to the link, in ms (half each way). 0 makes a plain relay through the same code path. */
  rttMs: number;
  /** Bandwidth cap of the link per direction, shared by all connections; none by default. */
  bytesPerSec?: number;
  /**
   * Bandwidth cap of each connection per direction (a provider's per-connection rate); none by default. With it,
   * every connection has lanes of its own (bytesPerSec is then not applied).
   */
  connectionBytesPerSec?: number;
  /** Bytes a connection may have in flight per direction (a TCP window); default 8 MiB. */
  windowBytes?: number;
  /** ACK every read at once (TCP_QUICKACK); default true. */
  quickAck?: boolean;
}

export interface DelayProxyStats {
  connections: number;
  /** Sockets still open, both sides of every relayed connection. */
  openSockets: number;
  /** Bytes carried client -> server and server -> client. */
  bytesUp: number;
  bytesDown: number;
  /** How late chunks left compared with their due time (timer and event-loop lag), in ms. */
  maxLagMs: number;
  meanLagMs: number;
  /** Times a connection's sender was paused because its window was full. */
  windowStalls: number;
}

export interface DelayProxy {
  port: number;
  stats(): DelayProxyStats;
  /** Closes the listener and every relayed connection. */
  stop(): Promise<void>;
}

/** `owner`: the pooled read buffer `data` lies in, given back once the write has left it. */
type Item = { due: number; pipe: Pipe; data: Buffer | 'connect' | 'end' | 'destroy'; owner?: Buffer };

/**
 * Read buffers for the server's side (the bulk of the bytes), reused instead of a fresh Buffer per read: Node's
 * default reads allocate 64 KiB each, and on this VM the first touch of fresh memory (page faults) was a large
 * part of the proxy's CPU. A buffer is held from its read until the write of its bytes is done.
 */
const READ_BYTES = 128 * 1024;
class ReadBuffers {
  private readonly free: Buffer[] = [];
  take = (): Buffer => this.free.pop() ?? Buffer.allocUnsafeSlow(READ_BYTES);
  give(b: Buffer): void {
    if (this.free.length < 256) this.free.push(b);
  }
}

/** One direction of one connection. */
interface Pipe {
  /** The sending socket (upstream's is made when the handshake reaches the server). */
  from: net.Socket | undefined;
  to: () => net.Socket;
  /** The receiving socket if it exists yet (never makes the upstream one). */
  peer: () => net.Socket | undefined;
  /** Bytes queued in the lane, not yet written to `to`. */
  queued: number;
  paused: boolean;
  /** The sender closed cleanly (FIN): its 'end' travels the lane; a later close needs no reset. */
  ended: boolean;
}

/** A chunk may leave this much before its due time (timers are coarser than that). */
const EARLY_MS = 0.5;

/** One direction of the whole link: a FIFO of due chunks, one timer, the cap's clock. */
class Lane {
  private items: Item[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private linkFreeAt = 0;
  bytes = 0;
  lagSum = 0;
  lagCount = 0;
  maxLag = 0;

  constructor(
    private readonly halfMs: number,
    private readonly bytesPerSec: number | undefined,
    private readonly deliver: (it: Item) => void,
  ) {}

  push(pipe: Pipe, data: Item['data'], owner?: Buffer): void {
    let leaves = performance.now();
    if (this.bytesPerSec && Buffer.isBuffer(data)) {
      leaves = Math.max(leaves, this.linkFreeAt) + (data.length / this.bytesPerSec) * 1000;
      this.linkFreeAt = leaves;
    }
    this.items.push({ due: leaves + this.halfMs, pipe, data, owner });
    this.arm();
  }

  private arm(): void {
    if (this.timer || this.immediate || this.head >= this.items.length) return;
    const wait = this.items[this.head]!.due - performance.now();
    // Due now (a 0 ms link, or a timer that fired a little early): this loop turn, not setTimeout's 1 ms minimum.
    if (wait <= EARLY_MS) this.immediate = setImmediate(() => this.fire());
    // Else wake up to half a millisecond before it is due: Node's timers count whole milliseconds, and a timer set
    // for floor(wait) may fire up to a millisecond after the chunk was due (the proxy's own lag, not the link's).
    else this.timer = setTimeout(() => this.fire(), Math.max(1, Math.floor(wait - EARLY_MS)));
  }

  private fire(): void {
    this.timer = undefined;
    this.immediate = undefined;
    const now = performance.now();
    const corked = new Set<net.Socket>();
    // Chunks due within half a millisecond go now: waiting for them would only add a timer turn.
    while (this.head < this.items.length && this.items[this.head]!.due <= now + EARLY_MS) {
      const it = this.items[this.head]!;
      this.items[this.head++] = undefined as unknown as Item;
      const lag = Math.max(0, now - it.due);
      this.lagSum += lag;
      this.lagCount++;
      if (lag > this.maxLag) this.maxLag = lag;
      if (Buffer.isBuffer(it.data)) {
        const to = it.pipe.peer();
        if (to && !corked.has(to) && !to.destroyed) {
          to.cork();
          corked.add(to);
        }
      }
      this.deliver(it);
    }
    for (const s of corked) s.uncork();
    if (this.head > 4096 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.arm();
  }

  stop(): void {
    clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.items = [];
    this.head = 0;
  }
}

export async function startDelayProxy(opts: DelayProxyOptions): Promise<DelayProxy> {
  const half = opts.rttMs / 2;
  const window = opts.windowBytes ?? 8 * 2 ** 20;
  const ackAtOnce = opts.quickAck ?? true;
  const buffers = new ReadBuffers();
  const sockets = new Set<net.Socket>();
  let connections = 0;
  let windowStalls = 0;

  const deliver = (it: Item) => {
    const p = it.pipe;
    if (it.data === 'destroy') return p.peer()?.destroy(); // a reset before the handshake reached the server
    const to = p.to();
    if (Buffer.isBuffer(it.data)) {
      p.queued -= it.data.length;
      const owner = it.owner;
      if (!to.destroyed) to.write(it.data, owner ? () => buffers.give(owner) : undefined);
      maybeResume(p);
    } else if (it.data === 'end') {
      if (!to.destroyed) to.end();
    }
    // 'connect': p.to() above made the upstream socket
  };
  const up = new Lane(half, opts.bytesPerSec, deliver);
  const down = new Lane(half, opts.bytesPerSec, deliver);
  /** Every lane made (the shared two, and each connection's own under a per-connection cap), for stats and stop. */
  const lanes: Lane[] = [up, down];
  const lanesOf = (): [Lane, Lane] => {
    if (!opts.connectionBytesPerSec) return [up, down];
    const own: [Lane, Lane] = [
      new Lane(half, opts.connectionBytesPerSec, deliver),
      new Lane(half, opts.connectionBytesPerSec, deliver),
    ];
    lanes.push(...own);
    return own;
  };

  const inFlight = (p: Pipe) => p.queued + (p.peer()?.writableLength ?? 0);
  const maybeResume = (p: Pipe) => {
    if (p.paused && inFlight(p) <= window / 2) {
      p.paused = false;
      p.from?.resume();
    }
  };

  function send(p: Pipe, lane: Lane, d: Buffer, owner?: Buffer): void {
    p.queued += d.length;
    lane.bytes += d.length;
    lane.push(p, d, owner);
    if (!p.paused && inFlight(p) > window) {
      p.paused = true;
      windowStalls++;
      p.from?.pause();
    }
  }

  /** What `from` sent, read into `owner` when it is one of the pooled buffers. */
  const received = (from: net.Socket, p: Pipe, lane: Lane, d: Buffer, owner?: Buffer) => {
    if (ackAtOnce) quickAck(from);
    send(p, lane, d, owner);
  };

  /**
   * Relays what `from` sends through `lane`; its FIN travels as 'end', a reset as 'destroy'. `pooled`: `from`
   * reads into the pooled buffers (its `onread` calls `received`), else its 'data' events do.
   */
  function wire(from: net.Socket, p: Pipe, lane: Lane, other: Pipe, pooled = false): void {
    sockets.add(from);
    from.setNoDelay(true);
    from.on('error', () => undefined); // a reset shows as a close, passed on to the other side
    if (!pooled) from.on('data', (d: Buffer) => received(from, p, lane, d));
    from.on('end', () => {
      p.ended = true;
      lane.push(p, 'end');
    });
    from.on('close', () => {
      sockets.delete(from);
      if (!p.ended) lane.push(p, 'destroy');
    });
    from.on('drain', () => maybeResume(other));
  }

  const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }, (client) => {
    connections++;
    const [up, down] = lanesOf();
    let upstream: net.Socket | undefined;
    const pipe = (from: net.Socket | undefined, to: () => net.Socket, peer: () => net.Socket | undefined): Pipe => ({
      from,
      to,
      peer,
      queued: 0,
      paused: false,
      ended: false,
    });
    const upPipe = pipe(
      client,
      () => toServer(),
      () => upstream,
    );
    const downPipe = pipe(
      undefined,
      () => client,
      () => client,
    );
    const toServer = (): net.Socket => {
      if (upstream) return upstream;
      const socket: net.Socket = net.connect({
        port: opts.target.port,
        host: opts.target.host,
        allowHalfOpen: true,
        onread: {
          buffer: buffers.take,
          callback: (n: number, buf: Uint8Array) => {
            received(socket, downPipe, down, Buffer.from(buf.buffer, buf.byteOffset, n), buf as Buffer);
            return true;
          },
        },
      });
      upstream = socket;
      downPipe.from = upstream;
      wire(upstream, downPipe, down, upPipe, true);
      return upstream;
    };
    wire(client, upPipe, up, downPipe);
    // The handshake: the client's first bytes leave one round trip after its connect (paused until then, so the
    // kernel holds them), preceded on the lane by the connect that reaches the server half a trip later.
    const open = () => {
      up.push(upPipe, 'connect');
      if (!client.destroyed) client.resume();
    };
    if (opts.rttMs === 0) open();
    else {
      const t = setTimeout(open, opts.rttMs);
      client.once('close', () => clearTimeout(t));
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    stats: () => {
      const sum = (f: (l: Lane) => number, of = lanes) => of.reduce((s, l) => s + f(l), 0);
      const lagCount = sum((l) => l.lagCount);
      const ups = lanes.filter((_, i) => i % 2 === 0);
      const downs = lanes.filter((_, i) => i % 2 === 1);
      return {
        connections,
        openSockets: sockets.size,
        bytesUp: sum((l) => l.bytes, ups),
        bytesDown: sum((l) => l.bytes, downs),
        maxLagMs: Math.max(...lanes.map((l) => l.maxLag)),
        meanLagMs: lagCount === 0 ? 0 : sum((l) => l.lagSum) / lagCount,
        windowStalls,
      };
    },
    async stop() {
      for (const l of lanes) l.stop();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
