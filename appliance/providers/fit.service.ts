import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { CandidateAccount, CandidateLink } from './candidate-link.js';
import { costView, type PricedAccount, type ProviderDay } from './cost-view.js';
import { candidateFit } from './fit-report.js';
import { CandidateSampler, COMPARISON_SHARE, type CurrentProviders } from './fit-sampler.js';
import { FIT_DAYS_KEPT, dayOf, type FitTally } from './fit-tally.js';
import type { CostViewResponse, FitReportResponse } from './fit.wire.js';
import type { LibraryFiles } from './library-sweep.js';
import { StatBudget } from './stat-budget.js';

/** A provider entry as the fit report reads it. */
export type FitAccount = CandidateAccount &
  PricedAccount & { enabled: boolean; candidate: boolean; fit_stats_per_hour: number };

export interface FitServiceOptions {
  /** Every provider entry, candidates included, as configured now. */
  accounts: () => readonly FitAccount[];
  library: LibraryFiles;
  current: CurrentProviders;
  /** Bytes per provider per UTC day (the download totals, every node's). */
  totals: () => Iterable<ProviderDay>;
  tally: FitTally;
  clock: Clock;
  logger: Logger;
  random?: () => number;
  /** The connection to a candidate (tests); default its own NNTP connection (candidate-link.ts). */
  link?: (account: CandidateAccount) => Pick<CandidateLink, 'stat' | 'close'>;
}

const DAY_MS = 86_400_000;

/**
 * The fit report and cost view (docs/providers.md): one sampler per enabled candidate while `start`ed (the leader
 * runs them: app/fit.ts), each started again when its entry changes; the report and the cost view from the tally.
 */
export class FitService {
  private readonly samplers = new Map<string, { key: string; sampler: CandidateSampler }>();
  private readonly lastErrors = new Map<string, string>();
  /** Each candidate's budget, kept while the sampler restarts (a config edit, a change of leader). */
  private readonly budgets = new Map<string, StatBudget>();
  private running = false;

  constructor(private readonly o: FitServiceOptions) {}

  start(): void {
    this.running = true;
    this.reconcile();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.reconcile();
  }

  /** Starts, restarts or stops samplers to match the candidates configured now (after a config change). */
  async reconcile(): Promise<void> {
    const wanted = new Map(
      this.running ? this.candidates().map((a) => [a.id, { account: a, key: JSON.stringify(a) }]) : [],
    );
    const closing: Array<Promise<void>> = [];
    for (const [id, s] of this.samplers) {
      if (wanted.get(id)?.key === s.key) continue;
      this.samplers.delete(id);
      closing.push(this.retire(id, s.sampler));
    }
    for (const [id, w] of wanted) {
      if (this.samplers.has(id)) continue;
      const sampler = this.sampler(w.account);
      this.samplers.set(id, { key: w.key, sampler });
      sampler.start();
    }
    await Promise.all(closing);
  }

  report(): FitReportResponse {
    const since = dayOf(this.o.clock.now() - (FIT_DAYS_KEPT - 1) * DAY_MS);
    const days = this.o.tally.samples();
    const candidates = this.o.accounts().filter((a) => a.candidate);
    return {
      window_days: FIT_DAYS_KEPT,
      comparison_share: COMPARISON_SHARE,
      candidates: candidates.map((a) =>
        candidateFit(
          { id: a.id, host: a.host, statsPerHour: a.fit_stats_per_hour, lastError: this.lastErrorOf(a.id) },
          days,
          since,
        ),
      ),
    };
  }

  cost(): CostViewResponse {
    return costView(this.o.accounts(), this.o.totals(), this.o.tally.watched(), this.o.clock.now());
  }

  private candidates(): FitAccount[] {
    return this.o.accounts().filter((a) => a.candidate && a.enabled);
  }

  private lastErrorOf(id: string): string | null {
    return this.samplers.get(id)?.sampler.lastError ?? this.lastErrors.get(id) ?? null;
  }

  private async retire(id: string, sampler: CandidateSampler): Promise<void> {
    if (sampler.lastError) this.lastErrors.set(id, sampler.lastError);
    await sampler.close();
  }

  private sampler(account: FitAccount): CandidateSampler {
    const { library, current, tally, clock, logger, random } = this.o;
    const budget = this.budgetOf(account);
    const link = this.o.link?.(account);
    const base = { account, budget, library, current, tally, clock, logger, random };
    return new CandidateSampler(link ? { ...base, link } : base);
  }

  /** The candidate's budget; a new rate starts empty when it replaces one, so an edit never grants an extra hour. */
  private budgetOf(account: FitAccount): StatBudget {
    const kept = this.budgets.get(account.id);
    if (kept?.perHour === account.fit_stats_per_hour) return kept;
    const budget = new StatBudget(account.fit_stats_per_hour, this.o.clock, kept === undefined);
    this.budgets.set(account.id, budget);
    return budget;
  }
}
