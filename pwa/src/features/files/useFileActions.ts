import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSignals } from '@preact/signals-react/runtime';
import { auth, canAdminister, canChange } from '../../auth/authStore';
import { copyText } from '../../lib/clipboard';
import { toast } from '../../components/toast';
import { deleteItem, webdavUrl, type FileEntry } from '../../lib/webdav';
import { filesApi, saveBlob } from './filesApi';
import { filesKeys } from './filesKeys';

function messageOf(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback;
}

/**
 * The item menu's actions (docs/console-contract.md §2): download, NZB export, delete with confirmation, and the info/preview
 * dialogs. Download, delete and export failures also raise the 'Operation Failed' banner.
 */
export function useFileActions(dir: string, showCorrupted: boolean) {
  useSignals();
  const queryClient = useQueryClient();
  const [operationError, setOperationError] = useState<string | null>(null);
  const [pendingDelete, setPendingDelete] = useState<FileEntry | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [infoFor, setInfoFor] = useState<FileEntry | null>(null);
  const [previewFor, setPreviewFor] = useState<FileEntry | null>(null);

  /** Opens /webdav{path} in a new window; a blocked popup falls back to an anchor download. */
  const download = (entry: FileEntry) => {
    try {
      const url = webdavUrl(entry.filename);
      // No 'noopener' feature: with it window.open always answers null and a blocked popup could not be told apart.
      const win = window.open(url, '_blank');
      if (win) win.opener = null;
      else {
        const a = document.createElement('a');
        a.href = url;
        a.download = entry.basename;
        document.body.appendChild(a);
        a.click();
        a.remove();
      }
      toast.success('Download Started', entry.basename);
    } catch (err) {
      const message = messageOf(err, 'The download could not be started');
      setOperationError(message);
      toast.error('Download Failed', message);
    }
  };

  const exportNzb = async (entry: FileEntry) => {
    try {
      saveBlob(await filesApi.exportNzb(entry.filename), `${entry.basename}.nzb`);
      toast.success('NZB Exported', `${entry.basename}.nzb`);
    } catch (err) {
      const message = messageOf(err, 'The NZB could not be exported');
      setOperationError(message);
      toast.error('Export Failed', message);
    }
  };

  /** Makes a stream link for the file (POST /api/files/links, administrators) and copies it to the clipboard. */
  const copyStreamLink = async (entry: FileEntry) => {
    try {
      const link = await filesApi.createStreamLink(entry.filename);
      await copyText(link.url);
      toast.success('Stream Link Copied', link.url);
    } catch (err) {
      toast.error('Stream Link Failed', messageOf(err, 'The stream link could not be made'));
    }
  };

  const confirmDelete = async () => {
    const entry = pendingDelete;
    if (!entry) return;
    setDeleting(true);
    try {
      await deleteItem(entry.filename);
      await queryClient.invalidateQueries({ queryKey: filesKeys.directory(dir) });
      setOperationError(null);
    } catch (err) {
      setOperationError(messageOf(err, 'The item could not be deleted'));
    } finally {
      setDeleting(false);
      setPendingDelete(null);
    }
  };

  return {
    operationError,
    clearError: () => setOperationError(null),
    download,
    exportNzb: (entry: FileEntry) => void exportNzb(entry),
    copyStreamLink: (entry: FileEntry) => void copyStreamLink(entry),
    /** A read-only user deletes nothing; only administrators make stream links (docs/console-contract.md §6). */
    canChange: canChange(auth.value),
    canLink: canAdminister(auth.value) && canChange(auth.value),
    requestDelete: setPendingDelete,
    pendingDelete,
    deleting,
    confirmDelete: () => void confirmDelete(),
    cancelDelete: () => setPendingDelete(null),
    infoFor,
    openInfo: setInfoFor,
    closeInfo: () => setInfoFor(null),
    previewFor,
    openPreview: setPreviewFor,
    closePreview: () => setPreviewFor(null),
    showCorrupted,
  };
}

export type FileActions = ReturnType<typeof useFileActions>;
