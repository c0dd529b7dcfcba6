import { ComingSoon } from '../../components/ComingSoon';

export function QueuePage() {
  return (
    <ComingSoon
      title="Queue Management"
      icon="queue"
      description="The import queue (list, filters, retries, NZB upload and directory scan) arrives with the importer."
    />
  );
}
