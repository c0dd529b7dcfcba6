import { useQuery } from '@tanstack/react-query';
import type { ProviderCost } from '../../../../../../appliance/providers/fit.wire';
import { fitApi } from './fitApi';
import { gbText, moneyText } from './fitText';

const pricingText = (p: ProviderCost) =>
  p.pricing === 'month' ? 'Monthly' : p.pricing === 'block' ? 'Block' : 'No price';

/**
 * The cost view (docs/providers.md "Cost view"): per account over the last 30 days, the cost per GB fetched and per
 * hour watched, and when a block account runs out at that rate.
 */
export function CostView() {
  const q = useQuery({ queryKey: ['providers', 'cost'], queryFn: fitApi.cost, refetchInterval: 60_000 });
  const v = q.data;
  return (
    <section className="availability" aria-labelledby="cost-title">
      <header className="availability__head">
        <h3 id="cost-title">Cost</h3>
      </header>
      {q.isPending ? (
        <p className="muted">Loading...</p>
      ) : q.isError || !v ? (
        <p className="empty-state">Could not load the cost view.</p>
      ) : (
        <>
          <p className="muted">
            Last {v.days} days: {v.hours_watched.toFixed(1)} hours watched, {gbText(v.total.bytes)} fetched, total{' '}
            {moneyText(v.total.cost)} ({moneyText(v.total.cost_per_gb, 3)} per GB,{' '}
            {moneyText(v.total.cost_per_hour_watched, 3)} per hour watched). Prices are set in each provider.
          </p>
          <table aria-label="Cost by account">
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Pricing</th>
                <th scope="col">Fetched</th>
                <th scope="col">Cost</th>
                <th scope="col">Per GB</th>
                <th scope="col">Per hour watched</th>
                <th scope="col">Block runs out</th>
              </tr>
            </thead>
            <tbody>
              {v.providers.map((p) => (
                <tr key={p.provider}>
                  <th scope="row">
                    {p.provider}
                    {p.candidate ? ' (candidate)' : ''}
                  </th>
                  <td>{pricingText(p)}</td>
                  <td>{gbText(p.bytes)}</td>
                  <td>{moneyText(p.cost)}</td>
                  <td>{moneyText(p.cost_per_gb, 3)}</td>
                  <td>{moneyText(p.cost_per_hour_watched, 3)}</td>
                  <td>
                    {p.pricing !== 'block'
                      ? '—'
                      : `${p.runs_out_on ?? 'not at this rate'} (${moneyText(p.block_left_gb, 1)} GB left)`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
