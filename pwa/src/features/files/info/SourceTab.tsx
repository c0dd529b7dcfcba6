import { StatusBadge } from '../../../components/StatusBadge';
import type { FileMetadata } from '../filesApi';
import { completeness, encryptionLabel } from './health';

export function SourceTab({ meta }: { meta: FileMetadata }) {
  return (
    <dl className="file-facts">
      <dt>NZB Source</dt>
      <dd className="file-mono">{meta.source_nzb_path || 'Unknown'}</dd>
      <dt>Status</dt>
      <dd>
        <StatusBadge status={meta.status} />
      </dd>
      <dt>Encryption</dt>
      <dd>{encryptionLabel(meta.encryption)}</dd>
      <dt>Password Protected</dt>
      <dd>{meta.password_protected ? 'Yes' : 'No'}</dd>
      <dt>Completeness</dt>
      <dd>{completeness(meta)}</dd>
    </dl>
  );
}
