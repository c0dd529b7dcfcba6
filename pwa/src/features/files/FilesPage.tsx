import { useEffect } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { Icon } from '../../components/Icon';
import { LoadingBlock } from '../../components/Spinner';
import { autoConnectOnce, connectWebdav, webdavConnection } from './connection';
import { FileBrowser } from './FileBrowser';
import './files.css';

/** Files screen (docs/console-contract.md §2): connects to /webdav once on load, then browses it. */
export function FilesPage() {
  useSignals();
  useEffect(() => autoConnectOnce(), []);
  const conn = webdavConnection.value;

  if (conn.status === 'connected') return <FileBrowser />;
  if (conn.status === 'connecting') return <LoadingBlock label="Connecting to WebDAV (authenticating)..." />;
  if (conn.status === 'failed') {
    return (
      <div className="files-state" role="alert">
        <Icon name="alert" size={36} className="files-state__icon files-state__icon--error" />
        <h2>Connection Failed</h2>
        <p>{conn.message}</p>
        <p className="muted">Make sure you&apos;re logged in to the application</p>
        <button type="button" className="btn btn--primary" onClick={() => void connectWebdav()}>
          <Icon name="refresh" size={16} /> Retry Connection
        </button>
      </div>
    );
  }
  return (
    <div className="files-state">
      <Icon name="files" size={36} className="files-state__icon" />
      <h2>Not Connected</h2>
      <p className="muted">Connect to the WebDAV view of your library to browse it.</p>
      <button type="button" className="btn btn--primary" onClick={() => void connectWebdav()}>
        <Icon name="plug" size={16} /> Connect
      </button>
    </div>
  );
}
