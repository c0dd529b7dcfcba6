import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  AGE_BANDS,
  type AvailabilityCell,
  type AvailabilityWindow,
} from '../../../../../../appliance/providers/availability.wire';
import { availabilityApi } from './availabilityApi';

const BAND_LABELS: Record<(typeof AGE_BANDS)[number], string> = {
  '0-30d': '0-30 days',
  '1-12m': '1-12 months',
  '1-3y': '1-3 years',
  '3y+': 'Over 3 years',
  unknown: 'Unknown age',
};

/** A cell: the share had, with the counts behind it; a dash without evidence. */
export function cellText(c: AvailabilityCell): string {
  if (c.share === null) return '—';
  return `${(c.share * 100).toFixed(1)}% (${c.had}/${c.had + c.missing})`;
}

/**
 * Availability from real traffic (docs/providers.md): per provider and post age, the share of the articles asked of
 * it that it had over the last 7 or 30 days. Timeouts and refusals are not counted; a 430 is "did not have".
 */
export function AvailabilityTable() {
  const [span, setSpan] = useState<AvailabilityWindow>(7);
  const q = useQuery({
    queryKey: ['providers', 'availability'],
    queryFn: availabilityApi.get,
    refetchInterval: 30_000,
  });
  const providers = q.data?.providers ?? [];
  return (
    <section className="availability" aria-labelledby="availability-title">
      <header className="availability__head">
        <h3 id="availability-title">Availability</h3>
        <label>
          Window{' '}
          <select value={span} onChange={(e) => setSpan(Number(e.target.value) as AvailabilityWindow)}>
            <option value={7}>Last 7 days</option>
            <option value={30}>Last 30 days</option>
          </select>
        </label>
      </header>
      <p className="muted">
        Share of the articles asked of each provider that it had, by post age. A provider is asked only when the ones
        before it missed, so a backup&apos;s share is over what the others missed. Timeouts are not counted.
      </p>
      {q.isPending ? (
        <p className="muted">Loading...</p>
      ) : q.isError ? (
        <p className="empty-state">Could not load availability.</p>
      ) : providers.length === 0 ? (
        <p className="empty-state">No articles asked of any provider yet.</p>
      ) : (
        <table aria-label="Availability by post age">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              {AGE_BANDS.map((b) => (
                <th key={b} scope="col">
                  {BAND_LABELS[b]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {providers.map((p) => (
              <tr key={p.provider}>
                <th scope="row">{p.provider}</th>
                {AGE_BANDS.map((b) => (
                  <td key={b}>{cellText(p.windows[`${span}`][b])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
