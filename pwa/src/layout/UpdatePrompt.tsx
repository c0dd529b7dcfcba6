import { useRegisterSW } from 'virtual:pwa-register/react';
import { Icon } from '../components/Icon';

/** Hourly check for a new console build; the worker waits until the operator chooses to reload. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
    },
  });

  if (!needRefresh) return null;
  return (
    <div className="update-prompt" role="alertdialog" aria-labelledby="update-prompt-text">
      <Icon name="download" />
      <p id="update-prompt-text">A new version is available</p>
      <button type="button" className="btn btn--primary btn--sm" onClick={() => void updateServiceWorker(true)}>
        Reload
      </button>
      <button type="button" className="btn btn--ghost btn--sm" onClick={() => setNeedRefresh(false)}>
        Later
      </button>
    </div>
  );
}
