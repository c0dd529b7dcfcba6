import { sleep, type Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { NntpError } from '../nntp/index.js';
import { ageBand } from './availability.js';
import { CandidateLink, type CandidateAccount } from './candidate-link.js';
import type { FitTally } from './fit-tally.js';
import { LibrarySweep, type LibraryArticle, type LibraryFiles } from './library-sweep.js';
import type { StatBudget } from './stat-budget.js';
import type { FitBand } from './fit.wire.js';

/** Of the articles the current providers have, the share the candidate is asked too (the comparison sample). */
export const COMPARISON_SHARE = 0.25;
/** A new pass over the library starts at most once a day (a small library is not STATed over and over). */
export const SWEEP_EVERY_MS = 86_400_000;
/** An empty library is looked at again after this long. */
const EMPTY_RETRY_MS = 600_000;

/** The current providers, asked through the pool: true had, false a 430 from every one, else an outage. */
export interface CurrentProviders {
  statBatch(
    ids: readonly string[],
    opts: { priority: 'health'; signal?: AbortSignal },
  ): Promise<Array<boolean | NntpError>>;
}

export interface CandidateSamplerOptions {
  account: CandidateAccount;
  /** The candidate's STAT budget, kept by the caller across restarts of the sampler (a restart grants nothing). */
  budget: StatBudget;
  library: LibraryFiles;
  current: CurrentProviders;
  tally: FitTally;
  clock: Clock;
  logger: Logger;
  random?: () => number;
  link?: Pick<CandidateLink, 'stat' | 'close'>;
}

/**
 * STAT-samples one candidate account against the library (docs/providers.md "Fit report"). Each article of a pass
 * (library-sweep.ts) costs one STAT of the budget: the pool's STAT of the current providers; then the candidate is
 * asked when they missed it (every miss) or when the article was drawn into the comparison sample beforehand
 * (COMPARISON_SHARE of them, whatever the answer). So the candidate gets at most as many STATs as the budget, the
 * current providers as many, and most of the candidate's go to the misses. An outage of the current providers
 * skips the article; a candidate's answer other than 223 or 430 is an error, reported and never counted.
 */
export class CandidateSampler {
  private readonly budget: StatBudget;
  private readonly link: Pick<CandidateLink, 'stat' | 'close'>;
  private readonly stop = new AbortController();
  private done: Promise<void> | undefined;
  lastError: string | null = null;

  constructor(private readonly o: CandidateSamplerOptions) {
    this.budget = o.budget;
    this.link = o.link ?? new CandidateLink(o.account);
  }

  start(): void {
    this.done ??= this.run().catch((err: Error) => {
      if (!this.stop.signal.aborted) this.o.logger.error('fit sampler stopped', { error: err.message });
    });
  }

  async close(): Promise<void> {
    this.stop.abort(new Error('stopped'));
    await this.done;
    this.link.close();
  }

  private async run(): Promise<void> {
    const { clock } = this.o;
    const signal = this.stop.signal;
    while (!signal.aborted) {
      const started = clock.now();
      const sweep = new LibrarySweep(this.o.library, this.o.random);
      let sampled = 0;
      for (let a = sweep.next(); a && !signal.aborted; a = sweep.next()) {
        await this.spend();
        await this.sample(a);
        sampled++;
      }
      const wait = sampled === 0 ? EMPTY_RETRY_MS : started + SWEEP_EVERY_MS - clock.now();
      if (!signal.aborted) await sleep(clock, Math.max(0, wait), signal);
    }
  }

  /** Waits (on the clock) until the budget grants one STAT, and takes it. */
  private async spend(): Promise<void> {
    while (this.budget.take(1) === 0) await sleep(this.o.clock, this.budget.msUntilNext(), this.stop.signal);
  }

  private async sample(a: LibraryArticle): Promise<void> {
    const band = ageBand(a.posted, this.o.clock.now()) as FitBand;
    const compare = (this.o.random ?? Math.random)() < COMPARISON_SHARE;
    const [current] = await this.o.current.statBatch([a.messageId], { priority: 'health', signal: this.stop.signal });
    if (typeof current !== 'boolean') return; // an outage of the current providers: no evidence either way
    if (current && !compare) return;
    const answer = await this.link.stat(a.messageId);
    const id = this.o.account.id;
    const { tally } = this.o;
    if (answer.kind === 'error') {
      if (answer.message !== this.lastError)
        this.o.logger.warn('a candidate answered a STAT with an error: not counted', {
          candidate: id,
          error: answer.message,
        });
      this.lastError = answer.message;
      return tally.count(id, band, 'errors');
    }
    const had = answer.kind === 'had';
    if (!current) tally.count(id, band, had ? 'filled' : 'unfilled');
    if (compare) {
      tally.count(id, band, current ? 'current_had' : 'current_missing');
      tally.count(id, band, had ? 'candidate_had' : 'candidate_missing');
    }
  }
}
