import { useCallback, useEffect, useRef, useState } from 'react';

/** docs/console-contract.md §9: interval choices and the delay before a paused refresh resumes after the filter loses focus. */
export const AUTO_REFRESH_OPTIONS = [5000, 10000, 30000, 60000] as const;
export const RESUME_AFTER_BLUR_MS = 2000;
const TICK_MS = 250;

export interface AutoRefresh {
  enabled: boolean;
  setEnabled: (on: boolean) => void;
  intervalMs: number;
  setIntervalMs: (ms: number) => void;
  /** Whole seconds until the next refresh. */
  secondsLeft: number;
  paused: boolean;
  /** Wire to the focus/blur of the search and filter fields. */
  pauseHandlers: { onFocus: () => void; onBlur: () => void };
}

/**
 * The auto-refresh of the Queue and Health screens (docs/console-contract.md §2/§4): a countdown that calls `refresh` when it reaches
 * zero and starts again. Toggling, changing the interval or resuming restarts it; focusing a filter pauses it so
 * the list does not move under the operator's hands, and it resumes 2 s after the field loses focus.
 */
export function useAutoRefresh(refresh: () => void, initialMs = AUTO_REFRESH_OPTIONS[0]): AutoRefresh {
  const [enabled, setEnabled] = useState(true);
  const [intervalMs, setIntervalMs] = useState<number>(initialMs);
  const [paused, setPaused] = useState(false);
  const [secondsLeft, setSecondsLeft] = useState(Math.ceil(initialMs / 1000));
  const refreshRef = useRef(refresh);
  const resumeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    refreshRef.current = refresh;
  }, [refresh]);

  useEffect(() => {
    if (!enabled || paused) return;
    let deadline = Date.now() + intervalMs;
    setSecondsLeft(Math.ceil(intervalMs / 1000));
    const timer = setInterval(() => {
      if (Date.now() >= deadline) {
        refreshRef.current();
        deadline = Date.now() + intervalMs;
      }
      setSecondsLeft(Math.max(1, Math.ceil((deadline - Date.now()) / 1000)));
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [enabled, paused, intervalMs]);

  useEffect(() => () => clearTimeout(resumeTimer.current), []);

  const onFocus = useCallback(() => {
    clearTimeout(resumeTimer.current);
    setPaused(true);
  }, []);
  const onBlur = useCallback(() => {
    clearTimeout(resumeTimer.current);
    resumeTimer.current = setTimeout(() => setPaused(false), RESUME_AFTER_BLUR_MS);
  }, []);

  return {
    enabled,
    setEnabled,
    intervalMs,
    setIntervalMs,
    secondsLeft,
    paused,
    pauseHandlers: { onFocus, onBlur },
  };
}
