import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../components/Badge';
import { Icon } from '../../components/Icon';
import { healthApi, type HealthSchedule } from './healthApi';
import { healthKeys } from './healthKeys';
import { describeHours, SCHEDULE_POLL_MS } from './rules';

/**
 * The schedule card (docs/console-contract.md §10): the share of the library verified in the last N days, the
 * backlog at the current budget, the budgets, one full pass and the age tiers.
 */
export function ScheduleCard() {
  const schedule = useQuery({
    queryKey: healthKeys.schedule,
    queryFn: healthApi.schedule,
    refetchInterval: SCHEDULE_POLL_MS,
  });
  const s = schedule.data;
  return (
    <article className="card schedule-card" aria-labelledby="card-health-schedule">
      <header className="card__header">
        <h3 className="card__title" id="card-health-schedule">
          <Icon name="activity" /> Verification Schedule
        </h3>
        {s && <Badge tone={s.keeps_up ? 'success' : 'warning'}>{s.keeps_up ? 'Keeps Up' : 'Falling Behind'}</Badge>}
      </header>
      {schedule.isError && !s ? (
        <p className="text-error">Failed to load the schedule</p>
      ) : !s ? (
        <p className="muted">Loading...</p>
      ) : (
        <ScheduleFigures s={s} />
      )}
    </article>
  );
}

function ScheduleFigures({ s }: { s: HealthSchedule }) {
  const n = (v: number) => v.toLocaleString('en-US');
  return (
    <>
      <dl className="metric-list schedule-card__figures">
        <div>
          <dt>Verified (last {s.window_days} days)</dt>
          <dd>
            {s.verified_percent}% ({n(s.verified_files)} of {n(s.total_files)})
          </dd>
        </div>
        <div>
          <dt>Backlog</dt>
          <dd>
            {n(s.backlog_files)} files due ({describeHours(s.backlog_hours)} at the budget)
          </dd>
        </div>
        <div>
          <dt>Budget</dt>
          <dd>
            {n(s.stat_budget_per_hour)} STAT/h, {n(s.body_budget_per_hour)} BODY/h
          </dd>
        </div>
        <div>
          <dt>Full Pass</dt>
          <dd>{describeHours(s.full_pass_hours)}</dd>
        </div>
        <div>
          <dt>Tiers</dt>
          <dd className="schedule-card__tiers">
            {s.tiers.map((t) => (
              <span key={t.name}>
                {t.max_age_days === null ? 'older' : `${t.name} (< ${t.max_age_days} d)`}: every{' '}
                {describeHours(t.interval_hours)}, {n(t.files)} files
              </span>
            ))}
          </dd>
        </div>
      </dl>
      {s.held_by && (
        <p className="text-warning small">
          {s.held_by === 'budget' ? 'Checks wait for the budget' : 'Checks wait while a player streams'}
        </p>
      )}
    </>
  );
}
