import { signal } from '@preact/signals-react';
import { RESTART_REQUIRED_FIELDS } from './serverConfig';

/**
 * Settings that only take effect after a server restart (docs/console-contract.md §4), and whether the operator dismissed the banner.
 * Both live in sessionStorage: dismissal lasts for this browser session; Reload and Restart clear everything.
 */

const PENDING_KEY = 'spool.restart.pending';
const DISMISSED_KEY = 'spool.restart.dismissed';

export interface RestartState {
  pending: string[];
  dismissed: boolean;
}

/** The storage is injectable so the rules can be unit-tested without a browser. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

function defaultStore(): KeyValueStore | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

export function readRestartState(store = defaultStore()): RestartState {
  try {
    const pending = JSON.parse(store?.getItem(PENDING_KEY) ?? '[]') as unknown;
    return {
      pending: Array.isArray(pending) ? pending.filter((p): p is string => typeof p === 'string') : [],
      dismissed: store?.getItem(DISMISSED_KEY) === '1',
    };
  } catch {
    return { pending: [], dismissed: false };
  }
}

function write(state: RestartState, store = defaultStore()): RestartState {
  try {
    store?.setItem(PENDING_KEY, JSON.stringify(state.pending));
    if (state.dismissed) store?.setItem(DISMISSED_KEY, '1');
    else store?.removeItem(DISMISSED_KEY);
  } catch {
    // Storage full or blocked: the banner still works for this page.
  }
  return state;
}

export const restartState = signal<RestartState>(readRestartState());

/** Adds settings needing a restart. A setting not seen before brings a dismissed banner back. */
export function addRestartRequired(fields: string[], store = defaultStore()): RestartState {
  const current = readRestartState(store);
  const fresh = fields.filter((f) => !current.pending.includes(f));
  if (fresh.length === 0) return (restartState.value = current);
  return (restartState.value = write({ pending: [...current.pending, ...fresh], dismissed: false }, store));
}

export function dismissRestartBanner(store = defaultStore()): RestartState {
  return (restartState.value = write({ ...readRestartState(store), dismissed: true }, store));
}

/**
 * Takes the server's own list (restart-only settings changed since it started) as the truth. The banner comes
 * back after a dismissal only when the list names a setting the operator has not dismissed yet.
 */
export function syncRestartRequired(fields: string[], store = defaultStore()): RestartState {
  const current = readRestartState(store);
  const fresh = fields.some((f) => !current.pending.includes(f));
  return (restartState.value = write({ pending: [...fields], dismissed: current.dismissed && !fresh }, store));
}

/** Reload from file or a restart makes the pending list moot. */
export function clearRestartRequired(store = defaultStore()): RestartState {
  return (restartState.value = write({ pending: [], dismissed: false }, store));
}

/**
 * Which restart-only settings a save changed: the server's own list when it sends one, plus what the console
 * sees changing between the saved values and the values it sent.
 */
export function changedRestartFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  serverList: string[] | undefined,
): string[] {
  const seen = new Set(serverList ?? []);
  for (const field of RESTART_REQUIRED_FIELDS) {
    if (field in after && before[field] !== after[field]) seen.add(field);
  }
  return [...seen];
}
