import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../../../api/client';
import { diagnosticsApi, SUPPORT_BUNDLE_URL } from '../../../../api/diagnostics';
import { Badge, type Tone } from '../../../../components/Badge';
import { LoadingBlock } from '../../../../components/Spinner';
import type { DiagnosticFinding, DiagnosticLevel } from '../../../../../../appliance/diagnostics/diagnostics.wire';
import { SpeedTestPanel } from './SpeedTestPanel';

const TONE: Record<DiagnosticLevel, Tone> = { error: 'error', warning: 'warning', info: 'neutral' };
const LABEL: Record<DiagnosticLevel, string> = { error: 'Error', warning: 'Warning', info: 'Info' };

function Finding({ f }: { f: DiagnosticFinding }) {
  return (
    <li className="diagnostic" data-level={f.level} data-check={f.check}>
      <Badge tone={TONE[f.level]}>{LABEL[f.level]}</Badge> <span>{f.message}</span>
      {f.fix && <p className="field__hint">Fix: {f.fix}</p>}
    </li>
  );
}

/** Configuration > System: the diagnostics (docs/diagnostics.md), the speed test and the support bundle. */
export function SystemHealthCard() {
  const report = useQuery({ queryKey: ['system', 'diagnostics'], queryFn: diagnosticsApi.run, staleTime: 0 });
  let body;
  if (report.isPending) body = <LoadingBlock label="Running checks..." />;
  else if (report.isError) body = <p className="muted">{describeError(report.error, 'Failed to run the checks')}</p>;
  else {
    const { counts, findings, checked_at } = report.data;
    body = (
      <>
        <p aria-label="Health summary">
          <Badge tone={counts.error ? 'error' : 'success'}>{counts.error} errors</Badge>{' '}
          <Badge tone={counts.warning ? 'warning' : 'success'}>{counts.warning} warnings</Badge>{' '}
          <span className="muted">checked {new Date(checked_at).toLocaleString()}</span>
        </p>
        <ul className="diagnostics" aria-label="Findings">
          {findings.map((f, i) => (
            <Finding key={`${f.check}-${i}`} f={f} />
          ))}
        </ul>
      </>
    );
  }
  return (
    <div className="field" role="region" aria-label="System health">
      <span className="field__label">System health</span>
      {body}
      <div className="api-key">
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => void report.refetch()}
          disabled={report.isFetching}
        >
          {report.isFetching ? 'Checking...' : 'Check again'}
        </button>
        <a className="btn btn--secondary" href={SUPPORT_BUNDLE_URL} download>
          Download support bundle
        </a>
      </div>
      <p className="field__hint">
        The support bundle holds the config without its secrets, these checks, versions, metrics and the last log lines:
        attach it to an issue report.
      </p>
      <SpeedTestPanel />
    </div>
  );
}
