import { useState } from 'react';
import { webdavUrl, type FileEntry } from '../../../lib/webdav';

/**
 * Video and audio stream straight from GET /webdav{path}: the browser asks for byte ranges as it plays and seeks.
 * A load error reloads the player once (docs/console-contract.md §8 'load errors trigger a preview retry'); a second error fails.
 */
export function MediaPreview({
  entry,
  kind,
  onFail,
}: {
  entry: FileEntry;
  kind: 'video' | 'audio';
  onFail: (message: string) => void;
}) {
  const [retried, setRetried] = useState(false);
  const src = webdavUrl(entry.filename);
  const onError = () => {
    if (!retried) setRetried(true);
    else onFail(`The ${kind} could not be played by this browser or could not be read.`);
  };
  const key = retried ? 'retry' : 'first';
  return kind === 'video' ? (
    <video
      key={key}
      className="preview__media"
      src={src}
      controls
      preload="metadata"
      onError={onError}
      data-testid="preview-video"
    />
  ) : (
    <audio
      key={key}
      className="preview__audio"
      src={src}
      controls
      preload="metadata"
      onError={onError}
      data-testid="preview-audio"
    />
  );
}
