import { useMemo } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, describeError } from '../../api/client';
import { toast } from '../../components/toast';
import { useConfirm, type PendingConfirm } from '../../components/useConfirm';
import { healthApi, type HealthRecord } from './healthApi';
import { healthKeys } from './healthKeys';
import { cleanupCutoff, fileName } from './rules';

/** A repair the arrs cannot take (the file is in no Radarr/Sonarr library) is a warning, not a failure. */
export function reportRepairError(err: unknown): void {
  if (err instanceof ApiError && err.code === 'NOT_FOUND') {
    toast.warning(
      'File Not Found in ARR',
      'This file is not managed by any configured Radarr or Sonarr instance. Check the Radarr/Sonarr settings ' +
        'and that the file lies in a folder one of them manages.',
      6000,
    );
    return;
  }
  toast.error('Failed to trigger repair', describeError(err, 'The repair could not be started'));
}

/** The contract's text of a failed bulk action, with the server's reason after it when there is one. */
const withReason = (text: string, err: unknown) => {
  const reason = describeError(err, '');
  return reason ? `${text}: ${reason}` : text;
};

export interface HealthRowActions {
  retry: (r: HealthRecord) => void;
  cancel: (r: HealthRecord) => void;
  repair: (r: HealthRecord) => void;
  remove: (r: HealthRecord) => void;
  busyId: number | undefined;
  /** A read-only user: no row actions (docs/console-contract.md §6). */
  readOnly?: boolean;
}

/** Row, bulk and cleanup actions of the Health screen, confirmed and reported as docs/console.md says. */
export function useHealthActions(clearSelection: () => void) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: healthKeys.all });
  const confirm = useConfirm(() => void refresh());
  const ask = (c: Omit<PendingConfirm, 'run'>, run: () => Promise<void>) => confirm.ask({ ...c, run });

  const retry = useMutation({
    mutationFn: (r: HealthRecord) => healthApi.retry(r.file_path),
    onSuccess: (_, r) => {
      toast.success('Health Check Queued', fileName(r.file_path));
      void refresh();
    },
    onError: (err) => toast.error('Retry failed', describeError(err, 'Failed to retry health check')),
  });

  const cancel = (r: HealthRecord) =>
    ask(
      {
        title: 'Cancel Check',
        message: `Cancel the running health check of "${fileName(r.file_path)}"?`,
        confirmLabel: 'Cancel Check',
      },
      () =>
        healthApi.cancel(r.id).then(
          () => void toast.success('Check Cancelled', fileName(r.file_path)),
          (err) => void toast.error('Failed to cancel check', describeError(err, 'The check could not be cancelled')),
        ),
    );

  const repair = (r: HealthRecord) =>
    ask(
      {
        title: 'Trigger Repair',
        message:
          `Ask Radarr or Sonarr to replace "${fileName(r.file_path)}"? The file is searched again and ` +
          'the broken copy is replaced when a new one is imported.',
        confirmLabel: 'Trigger Repair',
      },
      () =>
        healthApi.repair(r.id).then(
          () => void toast.success('Repair Triggered', fileName(r.file_path)),
          (err) => void reportRepairError(err),
        ),
    );

  const remove = (r: HealthRecord) =>
    ask(
      {
        title: 'Confirm Delete',
        message: `Are you sure you want to delete "${fileName(r.file_path)}"? This action cannot be undone.`,
        confirmLabel: 'Delete Record',
      },
      () =>
        healthApi.remove(r.id).then(
          () => void toast.success('Health Record Deleted', fileName(r.file_path)),
          (err) => void toast.error('Delete failed', describeError(err, 'Failed to delete health record')),
        ),
    );

  const bulkDelete = (paths: string[]) =>
    ask(
      {
        title: 'Delete Selected',
        message: `Are you sure you want to delete ${paths.length} selected health record(s)? This action cannot be undone.`,
        confirmLabel: 'Delete Selected',
      },
      () =>
        healthApi.bulkDelete(paths).then(
          (answer) => {
            clearSelection();
            toast.success(`Deleted ${answer.deleted_count} health record(s)`, missingNote(answer.missing_paths));
          },
          (err) => void toast.error('Error', withReason('Failed to delete selected health records', err)),
        ),
    );

  const bulkRestart = (paths: string[]) =>
    ask(
      {
        title: 'Restart Checks',
        message: `Restart the health checks of ${paths.length} selected file(s)? They go back to pending and are checked again.`,
        confirmLabel: 'Restart Checks',
      },
      () =>
        healthApi.bulkRestart(paths).then(
          (answer) => {
            clearSelection();
            toast.success(`Restarted ${answer.restarted_count} health check(s)`, missingNote(answer.missing_paths));
          },
          (err) => void toast.error('Error', withReason('Failed to restart selected health checks', err)),
        ),
    );

  const cleanup = () =>
    ask(
      {
        title: 'Cleanup Old Records',
        message: 'Delete every health record older than 7 days? This action cannot be undone.',
        confirmLabel: 'Cleanup',
      },
      () =>
        healthApi.cleanup(cleanupCutoff()).then(
          (answer) => void toast.success('Cleanup Complete', `Removed ${answer.deleted_count} old health record(s)`),
          (err) => void toast.error('Cleanup Failed', describeError(err, 'Failed to clean up old health records')),
        ),
    );

  const rowActions: HealthRowActions = useMemo(
    () => ({
      retry: (r: HealthRecord) => retry.mutate(r),
      cancel,
      repair,
      remove,
      busyId: retry.isPending ? retry.variables?.id : undefined,
    }),
    // cancel/repair/remove only open a dialog; the busy id is what changes what rows show.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [retry.isPending, retry.variables?.id],
  );

  return { rowActions, bulkDelete, bulkRestart, cleanup, confirmDialog: confirm.dialog };
}

/** Records gone between the page load and the click (deleted elsewhere) are named, not hidden. */
function missingNote(missing: string[]): string | undefined {
  return missing.length > 0 ? `${missing.length} no longer tracked` : undefined;
}
