import { useRef, useState, type ChangeEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { backupsApi } from '../../../api/backups';
import type { SpoolConfig } from '../../../api/types';
import { describeError } from '../../../api/client';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadingBlock } from '../../../components/Spinner';
import { toast } from '../../../components/toast';
import { formatBytes, formatDate } from '../../../lib/format';
import type { BackupItem, RestoreReport } from '../../../../../appliance/backup/backup.wire';
import { BackupScheduleForm } from './backups/BackupScheduleForm';

const QUERY_KEY = ['system', 'backups'];

function LastRestore({ report }: { report: RestoreReport }) {
  return (
    <p className="field__hint" aria-label="Last restore">
      Last restore: {report.archive} (taken {formatDate(report.created)}), restored {formatDate(report.restored_at)}
      {report.safety_backup ? `; the state before it is in ${report.safety_backup.split('/').pop()}` : ''}.
    </p>
  );
}

function BackupRow({ item, onRestore }: { item: BackupItem; onRestore: (item: BackupItem) => void }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: QUERY_KEY });
  const keep = useMutation({
    mutationFn: () => backupsApi.keep(item.name, !item.keep_forever),
    onSuccess: refresh,
    onError: (err) => toast.error('Failed to change the backup', describeError(err, 'Failed to change the backup')),
  });
  const remove = useMutation({
    mutationFn: () => backupsApi.remove(item.name),
    onSuccess: refresh,
    onError: (err) => toast.error('Failed to delete the backup', describeError(err, 'Failed to delete the backup')),
  });
  return (
    <tr>
      <td>{item.name}</td>
      <td>{formatDate(item.created)}</td>
      <td>{item.kind}</td>
      <td>{formatBytes(item.size)}</td>
      <td>
        <label>
          <input type="checkbox" checked={item.keep_forever} onChange={() => keep.mutate()} /> Keep forever
        </label>
      </td>
      <td className="api-key">
        <a className="btn btn--secondary" href={backupsApi.downloadUrl(item.name)} download={item.name}>
          Download
        </a>
        <button type="button" className="btn btn--secondary" onClick={() => onRestore(item)}>
          Restore
        </button>
        <button type="button" className="btn btn--danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
          Delete
        </button>
      </td>
    </tr>
  );
}

/**
 * System, Backups (docs/backups.md): the schedule and retention, the archives, take one now, upload, keep forever,
 * download, restore.
 */
export function BackupsCard({ config }: { config: SpoolConfig }) {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: QUERY_KEY, queryFn: backupsApi.list });
  const [restoring, setRestoring] = useState<BackupItem | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: QUERY_KEY });
  const create = useMutation({
    mutationFn: backupsApi.create,
    onSuccess: async (item) => {
      toast.success(`Backup ${item.name} written`);
      await refresh();
    },
    onError: (err) => toast.error('Backup failed', describeError(err, 'Backup failed')),
  });
  const upload = useMutation({
    mutationFn: backupsApi.upload,
    onSuccess: async (item) => {
      toast.success(`Backup ${item.name} uploaded`);
      await refresh();
    },
    onError: (err) => toast.error('Upload refused', describeError(err, 'Upload refused')),
  });
  const restore = useMutation({
    mutationFn: (item: BackupItem) => backupsApi.restore(item.name),
    onSuccess: () => {
      setRestoring(null);
      toast.success('Restoring: Spool restarts into the backup');
    },
    onError: (err) => {
      setRestoring(null);
      toast.error('Restore refused', describeError(err, 'Restore refused'));
    },
  });
  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) upload.mutate(file);
    e.target.value = '';
  };

  let body;
  if (list.isPending) body = <LoadingBlock label="Loading backups..." />;
  else if (list.isError) body = <p className="muted">Failed to load backups</p>;
  else
    body = (
      <>
        <p className="field__hint">
          Schedule: <code>{list.data.schedule}</code>
          {list.data.next_run ? `, next ${formatDate(list.data.next_run)}` : ''}
        </p>
        {list.data.last_restore && <LastRestore report={list.data.last_restore} />}
        {list.data.items.length === 0 ? (
          <p className="muted">No backups yet</p>
        ) : (
          <table aria-label="Backups">
            <thead>
              <tr>
                <th>Name</th>
                <th>Taken</th>
                <th>Kind</th>
                <th>Size</th>
                <th>Keep</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((item) => (
                <BackupRow key={item.name} item={item} onRestore={setRestoring} />
              ))}
            </tbody>
          </table>
        )}
      </>
    );

  return (
    <div className="field">
      <span className="field__label">Backups</span>
      <div className="api-key">
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => create.mutate()}
          disabled={create.isPending}
        >
          {create.isPending ? 'Backing up...' : 'Back up now'}
        </button>
        <button type="button" className="btn btn--secondary" onClick={() => fileInput.current?.click()}>
          {upload.isPending ? 'Uploading...' : 'Upload backup'}
        </button>
        <input ref={fileInput} type="file" accept=".tar" hidden aria-label="Backup file" onChange={onFile} />
      </div>
      <BackupScheduleForm saved={config.backups} />
      {body}
      <ConfirmDialog
        open={restoring !== null}
        title="Restore backup"
        message={`Spool checks ${restoring?.name ?? ''}, backs up the current state, then restarts into the backup.`}
        confirmLabel="Restore"
        tone="danger"
        busy={restore.isPending}
        onConfirm={() => restoring && restore.mutate(restoring)}
        onCancel={() => setRestoring(null)}
      />
    </div>
  );
}
