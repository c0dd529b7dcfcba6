import { useId } from 'react';
import { AUTO_REFRESH_OPTIONS, type AutoRefresh } from '../lib/useAutoRefresh';

/** Auto toggle, interval select and the 'Auto-refresh in Ns' countdown (docs/console-contract.md §2 Health/Queue). */
export function AutoRefreshControl({ state }: { state: AutoRefresh }) {
  const toggleId = useId();
  const selectId = useId();
  let line = 'Auto-refresh off';
  if (state.enabled) line = state.paused ? 'Auto-refresh paused' : `Auto-refresh in ${state.secondsLeft}s`;
  return (
    <div className="auto-refresh" role="group" aria-label="Auto-refresh">
      <label htmlFor={toggleId} className="auto-refresh__toggle">
        <input
          id={toggleId}
          type="checkbox"
          role="switch"
          checked={state.enabled}
          onChange={(e) => state.setEnabled(e.target.checked)}
        />
        Auto
      </label>
      <label htmlFor={selectId} className="visually-hidden">
        Refresh interval
      </label>
      <select
        id={selectId}
        value={state.intervalMs}
        onChange={(e) => state.setIntervalMs(Number(e.target.value))}
        disabled={!state.enabled}
      >
        {AUTO_REFRESH_OPTIONS.map((ms) => (
          <option key={ms} value={ms}>
            {ms / 1000}s
          </option>
        ))}
      </select>
      <span className="auto-refresh__countdown muted" aria-live="off">
        {line}
      </span>
    </div>
  );
}
