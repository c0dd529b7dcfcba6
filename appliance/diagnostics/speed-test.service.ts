import type { Clock } from '../clock/clock.js';
import { AppError } from '../errors/app-error.js';
import type { ConnectionHold, ProviderConfig } from '../nntp/index.js';
import type { SpeedTestRequest, SpeedTestStatus } from './diagnostics.wire.js';
import { runSpeedTest } from './speed-test.js';

export interface SpeedTestDeps {
  clock: Pick<Clock, 'now'>;
  provider: (id: string) => ProviderConfig | undefined;
  /** Message-ids of library articles to read (a sample; read again and again). */
  sampleArticles: () => Promise<string[]>;
  playersReading: () => boolean;
  /**
   * Takes the provider's connections from the pool for the test's length (NntpPool.holdConnections), so the pool's
   * and the test's together stay within the account's limit.
   */
  holdConnections: (providerId: string) => ConnectionHold | undefined;
  /** Sets the provider's max_connections (the config's provider edit). */
  applyMaxConnections: (providerId: string, n: number) => Promise<void>;
  /** Step timing; production: 1 s warm-up, 4 s measured. */
  warmupMs?: number;
  measureMs?: number;
  tlsCa?: string;
}

const IDLE: SpeedTestStatus = {
  state: 'idle',
  provider_id: null,
  current_max_connections: null,
  steps: [],
  suggested_max_connections: null,
  reason: null,
  started_at: null,
  finished_at: null,
};

/**
 * One provider speed test at a time (docs/diagnostics.md, "Speed test"): started by POST, watched by GET, and its
 * suggestion written to the provider's max_connections only when the operator confirms it.
 */
export class SpeedTestService {
  private status: SpeedTestStatus = IDLE;
  private running: Promise<void> | null = null;
  private abort: AbortController | null = null;

  constructor(private readonly d: SpeedTestDeps) {}

  current(): SpeedTestStatus {
    return structuredClone(this.status);
  }

  /** Starts a test; refuses while one runs, for an unknown provider, or while a player reads. */
  async start(req: SpeedTestRequest): Promise<SpeedTestStatus> {
    if (this.running) throw new AppError('IN_PROGRESS', 'A speed test is already running; wait for it to finish.');
    const provider = this.d.provider(req.provider_id);
    if (!provider) throw new AppError('NO_SUCH_RECORD', `No provider with id ${req.provider_id}`);
    if (this.d.playersReading())
      throw new AppError('IN_PROGRESS', 'Something is playing now; run the speed test when nothing plays.');
    const ids = await this.d.sampleArticles();
    if (ids.length === 0)
      throw new AppError('NO_SUCH_RECORD', 'The library has no articles to read yet; import a release first.');
    // What the account allows, as the operator says: the provider's max_connections unless asked for more.
    const maxConnections = req.max_connections ?? provider.max_connections;
    this.status = {
      ...IDLE,
      state: 'running',
      provider_id: provider.id,
      current_max_connections: provider.max_connections,
      started_at: new Date(this.d.clock.now()).toISOString(),
    };
    this.abort = new AbortController();
    this.running = this.execute(provider, ids, maxConnections, (req.max_seconds ?? 60) * 1000).finally(() => {
      this.running = null;
      this.abort = null;
    });
    return this.current();
  }

  /** Resolves when the running test (if any) has ended. */
  async settled(): Promise<SpeedTestStatus> {
    await this.running;
    return this.current();
  }

  /** Writes the confirmed count to the provider's max_connections. */
  async apply(providerId: string, maxConnections: number): Promise<void> {
    if (!this.d.provider(providerId)) throw new AppError('NO_SUCH_RECORD', `No provider with id ${providerId}`);
    await this.d.applyMaxConnections(providerId, maxConnections);
  }

  async stop(): Promise<void> {
    this.abort?.abort();
    await this.running;
  }

  private async execute(provider: ProviderConfig, ids: string[], max: number, maxMs: number): Promise<void> {
    const hold = this.d.holdConnections(provider.id);
    try {
      const result = await runSpeedTest({
        provider,
        othersConnected: hold && (() => hold.connections()),
        messageIds: ids,
        maxConnections: max,
        warmupMs: this.d.warmupMs ?? 1000,
        measureMs: this.d.measureMs ?? 4000,
        maxMs,
        playersReading: this.d.playersReading,
        tlsCa: this.d.tlsCa,
        signal: this.abort!.signal,
        onStep: (step) => this.status.steps.push(step),
      });
      const failed = result.steps.length === 0;
      this.status.state = failed ? 'failed' : result.stoppedBecause ? 'stopped' : 'done';
      this.status.suggested_max_connections = result.suggested;
      this.status.reason = result.stoppedBecause;
    } catch (err) {
      this.status.state = 'failed';
      this.status.reason = (err as Error).message;
    } finally {
      hold?.release();
    }
    this.status.finished_at = new Date(this.d.clock.now()).toISOString();
  }
}
