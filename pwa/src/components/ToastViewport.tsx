import { useSignals } from '@preact/signals-react/runtime';
import { dismissToast, toasts } from './toast';
import { Icon } from './Icon';

const ICONS = { success: 'check', error: 'alert', warning: 'warning', info: 'info' } as const;

/** Renders the toast stack; errors are announced assertively, the rest politely. */
export function ToastViewport() {
  useSignals();
  return (
    <div className="toast-viewport" aria-live="polite">
      {toasts.value.map((t) => (
        <div key={t.id} className={`toast toast--${t.type}`} role={t.type === 'error' ? 'alert' : 'status'}>
          <Icon name={ICONS[t.type]} className="toast__icon" />
          <div className="toast__body">
            <p className="toast__title">{t.title}</p>
            {t.message && <p className="toast__message">{t.message}</p>}
          </div>
          <button
            type="button"
            className="icon-button"
            aria-label="Dismiss notification"
            onClick={() => dismissToast(t.id)}
          >
            <Icon name="close" />
          </button>
        </div>
      ))}
    </div>
  );
}
