import { useQuery } from '@tanstack/react-query';
import { FIT_BANDS, type CandidateFit, type FitBandReport } from '../../../../../../appliance/providers/fit.wire';
import { fitApi } from './fitApi';
import { shareText } from './fitText';

const BAND_LABELS: Record<FitBandReport['band'], string> = {
  '0-30d': '0-30 days',
  '1-12m': '1-12 months',
  '1-3y': '1-3 years',
  '3y+': 'Over 3 years',
  all: 'All ages',
};

function CandidateTable({ c }: { c: CandidateFit }) {
  const rows = [...FIT_BANDS.map((b) => c.bands.find((x) => x.band === b)!), c.all];
  return (
    <div className="fit-candidate">
      <h4>
        {c.provider} <span className="muted small">{c.host}</span>
      </h4>
      <p className="muted small">
        {c.candidate_stats} STATs sent (budget {c.stats_per_hour} an hour) · {c.errors} errors, not counted
        {c.last_error ? ` · last: ${c.last_error}` : ''}
      </p>
      <table aria-label={`Fit of ${c.provider} by post age`}>
        <thead>
          <tr>
            <th scope="col">Post age</th>
            <th scope="col">Misses filled</th>
            <th scope="col">Current providers</th>
            <th scope="col">Candidate</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.band}>
              <th scope="row">{BAND_LABELS[r.band]}</th>
              <td>{shareText(r.misses_filled)}</td>
              <td>{shareText(r.current)}</td>
              <td>{shareText(r.candidate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The fit report (docs/providers.md "Fit report"): per candidate account (never used for reads), by post age, the
 * share of the current providers' misses it had and both availabilities, each with its 95% interval and sample.
 */
export function FitReport() {
  const q = useQuery({ queryKey: ['providers', 'fit'], queryFn: fitApi.report, refetchInterval: 30_000 });
  const candidates = q.data?.candidates ?? [];
  if (!q.isPending && !q.isError && candidates.length === 0) return null;
  return (
    <section className="availability" aria-labelledby="fit-title">
      <header className="availability__head">
        <h3 id="fit-title">Fit report</h3>
      </header>
      <p className="muted">
        Candidate accounts are never used for reads: Spool STATs them against your library on their budget. Misses
        filled: of the articles your providers miss, the share the candidate has. The availabilities are over a random
        sample both were asked. Each share has its 95% interval and sample size; answers other than 223 or 430 are
        errors and count nowhere.
      </p>
      {q.isPending ? (
        <p className="muted">Loading...</p>
      ) : q.isError ? (
        <p className="empty-state">Could not load the fit report.</p>
      ) : (
        candidates.map((c) => <CandidateTable key={c.provider} c={c} />)
      )}
    </section>
  );
}
