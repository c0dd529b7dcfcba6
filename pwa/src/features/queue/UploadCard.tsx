import { useId, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Badge } from '../../components/Badge';
import { Icon } from '../../components/Icon';
import { formatBytes } from '../../lib/format';
import { queueKeys } from './queueKeys';
import { nzbFileError } from './rules';
import { uploadNzb } from './upload';

/** docs/console-contract.md §3 Upload list item. */
interface UploadItem {
  id: number;
  file: File;
  status: 'pending' | 'uploading' | 'success' | 'error';
  errorMessage?: string;
  queueId?: number;
}

let nextUploadId = 1;

/**
 * Upload NZB Files (docs/console-contract.md §2/§5): several files at once; each is checked here first (.nzb, 100 MB) and then sent
 * one after the other, so every row walks pending → uploading → success (queue id) or error.
 */
export function UploadCard() {
  const queryClient = useQueryClient();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<UploadItem[]>([]);
  const patch = (id: number, change: Partial<UploadItem>) =>
    setItems((list) => list.map((it) => (it.id === id ? { ...it, ...change } : it)));

  const addFiles = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const added: UploadItem[] = Array.from(files, (file) => {
      const problem = nzbFileError(file);
      return problem
        ? { id: nextUploadId++, file, status: 'error', errorMessage: problem }
        : { id: nextUploadId++, file, status: 'pending' };
    });
    setItems((list) => [...added, ...list]);
    if (inputRef.current) inputRef.current.value = '';
    let sent = 0;
    for (const item of added) {
      if (item.status !== 'pending') continue;
      patch(item.id, { status: 'uploading' });
      try {
        const queueId = await uploadNzb(item.file);
        patch(item.id, { status: 'success', queueId });
        sent++;
      } catch (err) {
        patch(item.id, { status: 'error', errorMessage: err instanceof Error ? err.message : 'Upload failed' });
      }
    }
    if (sent > 0) void queryClient.invalidateQueries({ queryKey: queueKeys.all });
  };

  const busy = items.some((it) => it.status === 'pending' || it.status === 'uploading');
  return (
    <article className="card" aria-labelledby="upload-title">
      <header className="card__header">
        <h3 className="card__title" id="upload-title">
          <Icon name="download" /> Upload NZB Files
        </h3>
        {items.length > 0 && !busy && (
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => setItems([])}>
            Clear List
          </button>
        )}
      </header>
      <div className="field">
        <label htmlFor={inputId}>NZB files</label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          multiple
          accept=".nzb,application/x-nzb"
          onChange={(e) => void addFiles(e.target.files)}
        />
        <p className="field__hint">Only .nzb files, at most 100 MB each.</p>
      </div>
      {items.length > 0 && (
        <ul className="upload-list" aria-label="Uploads">
          {items.map((it) => (
            <li key={it.id} className="upload-list__item" data-status={it.status}>
              <span className="upload-list__name" title={it.file.name}>
                {it.file.name}
              </span>
              <span className="muted small">{formatBytes(it.file.size)}</span>
              <UploadState item={it} />
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

function UploadState({ item }: { item: UploadItem }) {
  switch (item.status) {
    case 'pending':
      return <Badge tone="warning">pending</Badge>;
    case 'uploading':
      return <Badge tone="info">uploading</Badge>;
    case 'success':
      return <Badge tone="success">success (queue id {item.queueId})</Badge>;
    case 'error':
      return (
        <span className="upload-list__error">
          <Badge tone="error">error</Badge> <span className="text-error small">{item.errorMessage}</span>
        </span>
      );
  }
}
