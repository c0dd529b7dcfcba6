import type { HealthStats } from '../../../api/types';
import { Icon } from '../../../components/Icon';
import { ProgressBar } from '../../../components/ProgressBar';

/** File Health card: 'healthy / total' and '<n> corrupted files' when any are corrupted. */
export function FileHealthCard({ stats }: { stats: HealthStats | undefined }) {
  const pct = stats && stats.total > 0 ? (stats.healthy / stats.total) * 100 : 0;
  return (
    <article className="card" aria-labelledby="card-file-health">
      <header className="card__header">
        <h3 className="card__title" id="card-file-health">
          <Icon name="health" /> File Health
        </h3>
      </header>
      <p className="stat-figure">
        {stats ? stats.healthy : '–'} <small>/ {stats ? stats.total : '–'}</small>
      </p>
      <ProgressBar percent={pct} label="Healthy files" />
      <p className="stat-line">
        {stats && stats.corrupted > 0 ? (
          <span className="text-error">{stats.corrupted} corrupted files</span>
        ) : stats ? (
          'No corrupted files'
        ) : (
          'Loading...'
        )}
      </p>
    </article>
  );
}
