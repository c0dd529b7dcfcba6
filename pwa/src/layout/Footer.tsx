import { useSignals } from '@preact/signals-react/runtime';
import { APP_VERSION, ISSUES_URL, SOURCE_URL } from '../lib/meta';
import { online } from './uiState';
import { live } from '../lib/live';
import { useBadgeCounts } from './badges';

/**
 * docs/console-contract.md §2 footer: status, whether changes arrive live or by polling (docs/console.md "Live
 * updates"), queue line, issues, version, and links when package.json names them.
 */
export function Footer() {
  useSignals();
  const counts = useBadgeCounts();
  const isOnline = online.value;
  return (
    <footer className="footer">
      <div className="footer__status">
        <span className={`status-dot ${isOnline ? 'status-dot--ok' : 'status-dot--off'}`} aria-hidden="true" />
        <span>{isOnline ? 'Online' : 'Offline'}</span>
        <span className="footer__sep" aria-hidden="true">
          ·
        </span>
        {live.value ? (
          <span title="Changes arrive as they happen">Live</span>
        ) : (
          <span title="The live channel is down: refreshing every few seconds">Polling</span>
        )}
        <span className="footer__sep" aria-hidden="true">
          ·
        </span>
        <span>Queue: {counts.processing > 0 ? `${counts.processing} active` : 'idle'}</span>
        {counts.corrupted > 0 && (
          <>
            <span className="footer__sep" aria-hidden="true">
              ·
            </span>
            <span className="text-error">Issues: {counts.corrupted}</span>
          </>
        )}
      </div>
      <div className="footer__meta">
        <span>Spool v{APP_VERSION}</span>
        {SOURCE_URL && (
          <a href={SOURCE_URL} target="_blank" rel="noreferrer">
            Source
          </a>
        )}
        {ISSUES_URL && (
          <a href={ISSUES_URL} target="_blank" rel="noreferrer">
            Report an issue
          </a>
        )}
      </div>
    </footer>
  );
}
