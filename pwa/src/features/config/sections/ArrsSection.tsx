import { ComingSoon } from '../../../components/ComingSoon';

/** Radarr/Sonarr Management: filled in by the work that builds the arrs domain. */
export function ArrsSection() {
  return (
    <div className="card">
      <ComingSoon
        title="Radarr/Sonarr Management"
        icon="clock"
        description="Radarr and Sonarr instances used for imports and automatic repair."
      />
    </div>
  );
}
