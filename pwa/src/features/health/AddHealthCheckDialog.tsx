import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../../api/client';
import { Modal } from '../../components/Modal';
import { toast } from '../../components/toast';
import { healthApi, type ManualCheck } from './healthApi';
import { healthKeys } from './healthKeys';
import { manualCheckComplete } from './rules';

/**
 * 'Add Manual Health Check' (docs/console.md, Health Monitoring): file path, source NZB path and a priority box, sent to POST /health/check.
 * The screen shows no button for it (as the console contract says); /health?add opens it.
 */
export function AddHealthCheckDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const [check, setCheck] = useState<ManualCheck>({ file_path: '', source_nzb_path: '', priority: false });
  const add = useMutation({
    mutationFn: (c: ManualCheck) =>
      healthApi.addCheck({ ...c, file_path: c.file_path.trim(), source_nzb_path: c.source_nzb_path.trim() }),
    onSuccess: (_, c) => {
      toast.success('File Added to Health Check Queue', c.file_path.trim());
      void queryClient.invalidateQueries({ queryKey: healthKeys.all });
      onClose();
    },
    onError: (err) => toast.error('Failed to Add File', describeError(err, 'The file could not be queued')),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!manualCheckComplete(check)) {
      toast.warning('Missing Required Fields', 'Please fill in both file path and source NZB path');
      return;
    }
    add.mutate(check);
  };

  return (
    <Modal title="Add Manual Health Check" onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="manual-check-file">File Path</label>
          <input
            id="manual-check-file"
            type="text"
            placeholder="/complete/movies/Some.Movie/Some.Movie.mkv"
            value={check.file_path}
            onChange={(e) => setCheck({ ...check, file_path: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="manual-check-nzb">Source NZB Path</label>
          <input
            id="manual-check-nzb"
            type="text"
            placeholder="Some.Movie.nzb"
            value={check.source_nzb_path}
            onChange={(e) => setCheck({ ...check, source_nzb_path: e.target.value })}
          />
        </div>
        <label className="checkbox-line">
          <input
            type="checkbox"
            checked={check.priority}
            onChange={(e) => setCheck({ ...check, priority: e.target.checked })}
          />
          Priority (check before the scheduled files)
        </label>
        <div className="dialog__actions">
          <button type="button" className="btn btn--secondary" onClick={onClose} disabled={add.isPending}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={add.isPending}>
            {add.isPending ? 'Adding...' : 'Add to Queue'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
