import net from 'node:net';

/**
 * A loopback relay that emulates a link with a round trip: every chunk is held for half the round trip in each
 * direction, order kept (the kernel here has no netem qdisc). For unit tests of latency-adaptive behaviour; the
 * benchmarks have their own proxy with a bandwidth cap (bench/lib).
 */
export class DelayRelay {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly target: { host: string; port: number },
    public rttMs: number,
  ) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        s.setNoDelay(true);
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      this.hold(client, upstream);
      this.hold(upstream, client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  private hold(from: net.Socket, to: net.Socket): void {
    const queue: Array<{ at: number; chunk: Buffer }> = [];
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      const now = performance.now();
      while (queue.length > 0 && queue[0]!.at <= now + 0.5) to.write(queue.shift()!.chunk);
      if (queue.length > 0) timer = setTimeout(flush, queue[0]!.at - now);
    };
    from.on('data', (chunk: Buffer) => {
      if (this.rttMs <= 0 && queue.length === 0) return void to.write(chunk);
      queue.push({ at: performance.now() + this.rttMs / 2, chunk });
      timer ??= setTimeout(flush, this.rttMs / 2);
    });
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}
