import { useMemo } from 'react';
import { formatRelativeTime } from '../../lib/format';
import { readLastKnown, type LastKnown } from '../../lib/lastKnown';
import { StatusBadge } from '../../components/StatusBadge';
import './offline.css';

/**
 * What the console last saw of the dashboard, the queue and health, with its age, shown when the server cannot
 * be reached (docs/console.md "Offline"). Nothing when nothing was kept.
 */
export function LastKnownView({ now = Date.now() }: { now?: number }) {
  const last = useMemo(() => readLastKnown(), []);
  if (!last) return null;
  const age = formatRelativeTime(new Date(last.savedAt).toISOString(), now);
  return (
    <section className="last-known" aria-label="Last known data">
      <p className="last-known__banner" role="status">
        Last updated {age} — server unreachable
      </p>
      <Figures last={last} />
      {last.queue && (
        <Table
          title="Queue"
          rows={last.queue.data.map((q) => ({ key: q.id, name: q.nzb_path, status: q.status }))}
          total={last.queue.meta.total}
        />
      )}
      {last.health && (
        <Table
          title="Health"
          rows={last.health.data.map((h) => ({ key: h.id, name: h.file_path, status: h.status }))}
          total={last.health.meta.total}
        />
      )}
    </section>
  );
}

function Figures({ last }: { last: LastKnown }) {
  const q = last.queueStats;
  const h = last.healthStats;
  if (!q && !h) return null;
  const figures = [
    ...(q
      ? [
          ['Queued', q.total_queued],
          ['Processing', q.total_processing],
          ['Completed', q.total_completed],
          ['Failed', q.total_failed],
        ]
      : []),
    ...(h
      ? [
          ['Healthy', h.healthy],
          ['Partial', h.partial],
          ['Corrupted', h.corrupted],
        ]
      : []),
  ] as [string, number][];
  return (
    <div className="card">
      <h2 className="card__title">Dashboard</h2>
      <dl className="last-known__figures">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function Table({
  title,
  rows,
  total,
}: {
  title: string;
  rows: { key: number; name: string; status: string }[];
  total: number;
}) {
  return (
    <div className="card">
      <h2 className="card__title">
        {title} ({total})
      </h2>
      {rows.length === 0 ? (
        <p className="muted">Empty</p>
      ) : (
        <table className="last-known__table" aria-label={`Last known ${title.toLowerCase()}`}>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <td className="last-known__name">{r.name}</td>
                <td>
                  <StatusBadge status={r.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
