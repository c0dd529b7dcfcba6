import { useState } from 'react';
import { Icon } from '../../../components/Icon';
import type { FileEntry } from '../../../lib/webdav';
import { Modal } from '../../../components/Modal';
import { classifyPreview } from '../preview';
import { FetchedPreview } from './FetchedPreview';
import { MediaPreview } from './MediaPreview';

interface Props {
  entry: FileEntry;
  onClose: () => void;
  onDownload: (entry: FileEntry) => void;
}

/** Preview by the classification of docs/console-contract.md §5: media players stream from /webdav, other kinds are fetched. */
export function PreviewDialog({ entry, onClose, onDownload }: Props) {
  const kind = classifyPreview(entry.basename, entry.mime);
  // Bumping the attempt remounts the viewer: Retry after 'Preview Failed' starts from scratch.
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  const retry = () => {
    setFailed(null);
    setAttempt((a) => a + 1);
  };
  const download = (
    <button type="button" className="btn btn--secondary" onClick={() => onDownload(entry)}>
      <Icon name="download" size={16} /> Download
    </button>
  );

  let body;
  if (failed) {
    body = (
      <div className="files-state files-state--compact" role="alert">
        <Icon name="alert" size={32} className="files-state__icon files-state__icon--error" />
        <h3>Preview Failed</h3>
        <p className="muted">{failed}</p>
        <div className="files-state__actions">
          <button type="button" className="btn btn--primary" onClick={retry}>
            <Icon name="refresh" size={16} /> Retry
          </button>
          {download}
        </div>
      </div>
    );
  } else if (kind === 'image' || kind === 'text' || kind === 'pdf') {
    body = <FetchedPreview key={attempt} entry={entry} kind={kind} onFail={setFailed} />;
  } else if (kind === 'video' || kind === 'audio') {
    body = <MediaPreview key={attempt} entry={entry} kind={kind} onFail={setFailed} />;
  } else {
    body = (
      <div className="files-state files-state--compact">
        <Icon name="info" size={32} className="files-state__icon" />
        <h3>Preview Not Available</h3>
        <p className="muted">File type not supported for preview</p>
        {download}
      </div>
    );
  }

  return (
    <Modal title={entry.basename} subtitle="Preview" onClose={onClose} wide>
      {body}
    </Modal>
  );
}
