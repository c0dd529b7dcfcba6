import { useSignals } from '@preact/signals-react/runtime';
import { Icon } from '../../components/Icon';
import { dismissRestartBanner, restartState } from './restartState';

/** 'Server restart required' with the changed restart-only settings; dismissal lasts for this browser session. */
export function RestartBanner() {
  useSignals();
  const { pending, dismissed } = restartState.value;
  if (pending.length === 0 || dismissed) return null;
  return (
    <div className="alert alert--warning" role="status" aria-live="polite">
      <Icon name="warning" />
      <div>
        <p className="alert__title">Server restart required</p>
        <p>These settings take effect after the server restarts:</p>
        <ul className="restart-list">
          {pending.map((p) => (
            <li key={p}>
              <code>{p}</code>
            </li>
          ))}
        </ul>
      </div>
      <button
        type="button"
        className="icon-button"
        aria-label="Dismiss restart notice"
        onClick={() => dismissRestartBanner()}
      >
        <Icon name="close" />
      </button>
    </div>
  );
}
