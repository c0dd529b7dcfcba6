import { useMemo } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../../api/client';
import { toast } from '../../components/toast';
import { useConfirm, type PendingConfirm } from '../../components/useConfirm';
import { queueApi, type QueueItem } from './queueApi';
import { queueKeys } from './queueKeys';
import { baseName } from './queueColumns';

/** Row, bulk and clear actions of the Queue screen, each confirmed where docs/console-contract.md §5 says so, with toasts. */
export function useQueueActions(clearSelection: () => void) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queueKeys.all });
  const confirm = useConfirm(() => void refresh());

  const retry = useMutation({
    mutationFn: (item: QueueItem) => queueApi.retry(item.id),
    onSuccess: (_, item) => {
      toast.success(item.status === 'pending' ? 'Processing queued' : 'Retry queued', baseName(item.nzb_path));
      void refresh();
    },
    onError: (err) => toast.error('Retry failed', describeError(err, 'Failed to retry queue item')),
  });

  const ask = (c: Omit<PendingConfirm, 'run'>, run: () => Promise<void>) => confirm.ask({ ...c, run });

  const remove = (item: QueueItem) =>
    ask(
      {
        title: 'Confirm Delete',
        message: `Are you sure you want to delete "${baseName(item.nzb_path)}"? This action cannot be undone.`,
        confirmLabel: 'Delete',
      },
      () =>
        queueApi.remove(item.id).then(
          () => void toast.success('Queue item deleted', baseName(item.nzb_path)),
          (err) => void toast.error('Delete failed', describeError(err, 'Failed to delete queue item')),
        ),
    );

  const bulkDelete = (ids: number[]) =>
    ask(
      {
        title: 'Delete Selected',
        message: `Are you sure you want to delete ${ids.length} selected item(s)? This action cannot be undone.`,
        confirmLabel: 'Delete Selected',
      },
      () =>
        queueApi.bulkDelete(ids).then(
          (r) => {
            clearSelection();
            toast.success(`Deleted ${r.deleted_count} item(s)`, skippedNote(r.skipped_ids, 'being imported'));
          },
          (err) => void toast.error('Error', describeError(err, 'Failed to delete selected items')),
        ),
    );

  const bulkRestart = (ids: number[]) =>
    ask(
      {
        title: 'Restart Selected',
        message: `Restart ${ids.length} selected item(s)? Their retry counts are reset and they go back to pending.`,
        confirmLabel: 'Restart Selected',
      },
      () =>
        queueApi.bulkRestart(ids).then(
          (r) => {
            clearSelection();
            toast.success(`Restarted ${r.restarted_count} item(s)`, skippedNote(r.skipped_ids, 'being imported'));
          },
          (err) => void toast.error('Error', describeError(err, 'Failed to restart selected items')),
        ),
    );

  const clear = (status: 'completed' | 'failed', count: number) =>
    ask(
      {
        title: status === 'completed' ? 'Clear Completed' : 'Clear Failed',
        message: `Remove all ${count} ${status} item(s) from the queue? This action cannot be undone.`,
        confirmLabel: status === 'completed' ? 'Clear Completed' : 'Clear Failed',
      },
      () =>
        queueApi.clear(status).then(
          (r) => void toast.success(`Cleared ${r.deleted_count} ${status} item(s)`),
          (err) => void toast.error('Error', describeError(err, `Failed to clear ${status} items`)),
        ),
    );

  const rowActions = useMemo(
    () => ({
      retry: (item: QueueItem) => retry.mutate(item),
      remove,
      busyId: retry.isPending ? retry.variables?.id : undefined,
    }),
    // `remove` only opens a dialog; the busy id is what changes what rows show.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [retry.isPending, retry.variables?.id],
  );

  return {
    rowActions,
    bulkDelete,
    bulkRestart,
    clear,
    confirmDialog: confirm.dialog,
  };
}

function skippedNote(skipped: number[], why: string): string | undefined {
  return skipped.length > 0 ? `${skipped.length} skipped (${why})` : undefined;
}
