import { ComingSoon } from '../../../components/ComingSoon';

/** NNTP Providers: filled in by the work that builds the providers domain. */
export function ProvidersSection() {
  return (
    <div className="card">
      <ComingSoon
        title="NNTP Providers"
        icon="clock"
        description="Usenet servers, their connection limits, priority and backup roles."
      />
    </div>
  );
}
