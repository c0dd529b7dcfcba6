import { useMutation } from '@tanstack/react-query';
import { describeError } from '../../../api/client';
import { Icon, type IconName } from '../../../components/Icon';
import { ProgressBar } from '../../../components/ProgressBar';
import { StatusBadge } from '../../../components/StatusBadge';
import { toast } from '../../../components/toast';
import { formatBytes, formatDate, formatRelativeTime } from '../../../lib/format';
import type { FileEntry } from '../../../lib/webdav';
import { filesApi, type FileMetadata } from '../filesApi';
import { availability, encryptionLabel } from './health';

const STATUS_ICON: Record<string, IconName> = { healthy: 'check', partial: 'warning', corrupted: 'alert' };

export function OverviewTab({ entry, meta }: { entry: FileEntry; meta: FileMetadata }) {
  const avail = availability(meta);
  const check = useMutation({
    mutationFn: () => filesApi.checkNow(entry.filename, meta.source_nzb_path),
    onSuccess: () => toast.success('File Added to Health Check Queue', entry.basename),
    onError: (err) => toast.error('Failed to Add File', describeError(err, 'The file could not be queued')),
  });
  return (
    <div className="file-info">
      <div className="file-info__status">
        <Icon
          name={STATUS_ICON[meta.status] ?? 'info'}
          size={28}
          className={`file-info__status-icon file-info__status-icon--${meta.status}`}
        />
        <StatusBadge status={meta.status} />
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          onClick={() => check.mutate()}
          disabled={check.isPending}
        >
          <Icon name="activity" size={14} /> {check.isPending ? 'Adding...' : 'Check Now'}
        </button>
      </div>
      <div>
        <p>{avail.text}</p>
        <ProgressBar percent={avail.percent} label="Segments available" />
      </div>
      {meta.password_protected && (
        <div className="alert alert--warning">
          <Icon name="lock" size={16} />
          <div>
            <span className="alert__title">Password Required</span>
          </div>
        </div>
      )}
      <dl className="file-facts">
        <dt>Size</dt>
        <dd>{formatBytes(meta.file_size)}</dd>
        <dt>Segments</dt>
        <dd>{meta.segment_count}</dd>
        <dt>Available</dt>
        <dd>{meta.available_segments}</dd>
        <dt>Encryption</dt>
        <dd>{encryptionLabel(meta.encryption)}</dd>
        <dt>Created</dt>
        <dd>
          {formatRelativeTime(meta.created_at)} <span className="muted">({formatDate(meta.created_at)})</span>
        </dd>
        <dt>Modified</dt>
        <dd>
          {formatRelativeTime(meta.modified_at)} <span className="muted">({formatDate(meta.modified_at)})</span>
        </dd>
      </dl>
    </div>
  );
}
