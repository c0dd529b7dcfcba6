import { useEffect, useState } from 'react';
import { LoadingBlock } from '../../../components/Spinner';
import { readBlob, readText, type FileEntry } from '../../../lib/webdav';
import { languageOf, lineCount } from '../preview';

/** Text previews read at most this much: enough to read a log or an NFO, never a whole large file. */
const TEXT_LIMIT = 1024 * 1024;

type Loaded = { kind: 'text'; text: string; truncated: boolean } | { kind: 'blob'; url: string };

/** Images, PDFs and text are fetched (docs/console-contract.md §5) and shown from memory. */
export function FetchedPreview({
  entry,
  kind,
  onFail,
}: {
  entry: FileEntry;
  kind: 'image' | 'text' | 'pdf';
  onFail: (message: string) => void;
}) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [imageRetried, setImageRetried] = useState(false);

  useEffect(() => {
    const ctrl = new AbortController();
    let url: string | undefined;
    const load = async () => {
      try {
        if (kind === 'text') {
          const { text, truncated } = await readText(entry.filename, TEXT_LIMIT, ctrl.signal);
          setLoaded({ kind: 'text', text, truncated });
        } else {
          url = URL.createObjectURL(await readBlob(entry.filename, ctrl.signal));
          setLoaded({ kind: 'blob', url });
        }
      } catch (err) {
        if (!ctrl.signal.aborted) onFail(err instanceof Error ? err.message : 'The file could not be read');
      }
    };
    void load();
    return () => {
      ctrl.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [entry.filename, kind, onFail]);

  if (!loaded) return <LoadingBlock label="Loading preview..." />;
  if (loaded.kind === 'text') {
    return (
      <div className="preview__text">
        <p className="muted" data-testid="preview-text-meta">
          {languageOf(entry.basename)} · {lineCount(loaded.text)} lines{loaded.truncated ? ' (first 1 MB)' : ''}
        </p>
        <pre data-testid="preview-text">{loaded.text}</pre>
      </div>
    );
  }
  if (kind === 'pdf') return <iframe className="preview__frame" src={loaded.url} title={entry.basename} />;
  return (
    <img
      key={imageRetried ? 'retry' : 'first'}
      className="preview__image"
      src={loaded.url}
      alt={entry.basename}
      onError={() => (imageRetried ? onFail('The image could not be displayed') : setImageRetried(true))}
    />
  );
}
