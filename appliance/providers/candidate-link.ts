import { ArticleMissingError, NntpConnection, type ConnectionOptions } from '../nntp/index.js';
import type { ProviderConfig } from '../nntp/index.js';

/** What a candidate answered to one STAT: evidence (223 had, 430 missing) or an error that is never counted. */
export type CandidateAnswer = { kind: 'had' } | { kind: 'missing' } | { kind: 'error'; message: string };

/** The connection fields of a candidate's provider entry. */
export type CandidateAccount = Pick<
  ProviderConfig,
  'id' | 'host' | 'port' | 'username' | 'password' | 'tls' | 'insecure_tls' | 'ca'
>;

const CONNECT_TIMEOUT_MS = 15_000;
/** A STAT unanswered this long is an error (a timeout), never a missing article. */
const STAT_TIMEOUT_MS = 30_000;

/**
 * The fit sampler's own connection to one candidate account (docs/providers.md "Fit report"): never the pool's, so
 * no read can reach the candidate. Opened on the first STAT, opened again after any failure. Only a 223 is "had"
 * and only a 430 "missing"; any other answer (a 423, a 5xx, a line that is no status, a closed connection, a
 * timeout) is an error the report shows and never counts.
 */
export class CandidateLink {
  private conn: NntpConnection | undefined;

  constructor(
    private readonly account: CandidateAccount,
    private readonly open: (o: ConnectionOptions) => Promise<NntpConnection> = (o) => NntpConnection.open(o),
  ) {}

  async stat(messageId: string): Promise<CandidateAnswer> {
    try {
      this.conn ??= await this.open(this.options());
      // The layouts keep ids as NZBs write them, without the angle brackets NNTP wants.
      await this.conn.stat(messageId.startsWith('<') ? messageId : `<${messageId}>`);
      return { kind: 'had' };
    } catch (err) {
      if (err instanceof ArticleMissingError && err.status === 430) return { kind: 'missing' };
      this.drop(err as Error);
      return { kind: 'error', message: ((err as Error).message ?? String(err)).slice(0, 200) };
    }
  }

  close(): void {
    void this.conn?.quit().catch(() => undefined);
    this.conn = undefined;
  }

  private drop(err: Error): void {
    this.conn?.destroy(err);
    this.conn = undefined;
  }

  private options(): ConnectionOptions {
    const a = this.account;
    return {
      host: a.host,
      port: a.port,
      tls: a.tls,
      insecureTls: a.insecure_tls,
      ...(a.tls && a.ca ? { tlsCa: a.ca } : {}),
      username: a.username,
      password: a.password,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      stallTimeoutMs: STAT_TIMEOUT_MS,
    };
  }
}
