import { ComingSoon } from '../../../components/ComingSoon';

/** SABnzbd API: filled in by the work that builds the sabnzbd domain. */
export function SabnzbdSection() {
  return (
    <div className="card">
      <ComingSoon
        title="SABnzbd API"
        icon="clock"
        description="The download-client API Radarr and Sonarr send NZBs to, with its categories."
      />
    </div>
  );
}
