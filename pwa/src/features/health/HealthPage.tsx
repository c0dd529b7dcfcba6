import { ComingSoon } from '../../components/ComingSoon';

export function HealthPage() {
  return (
    <ComingSoon
      title="Health Monitoring"
      icon="health"
      description="Article health checks, repair and worker status arrive with the health checker."
    />
  );
}
