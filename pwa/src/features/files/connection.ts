import { signal } from '@preact/signals-react';
import { testConnection } from '../../lib/webdav';
import { connectFailureMessage } from '../../lib/webdavErrors';

/** docs/console-contract.md §4 WebDAV connection: not connected, connecting, then connected or failed (retry possible). */
export type ConnectionState =
  | { status: 'disconnected' }
  | { status: 'connecting' }
  | { status: 'connected' }
  | { status: 'failed'; message: string };

export const webdavConnection = signal<ConnectionState>({ status: 'disconnected' });
let autoConnectTried = false;

export async function connectWebdav(): Promise<void> {
  if (webdavConnection.value.status === 'connecting') return;
  webdavConnection.value = { status: 'connecting' };
  try {
    await testConnection();
    webdavConnection.value = { status: 'connected' };
  } catch (err) {
    webdavConnection.value = { status: 'failed', message: connectFailureMessage(err) };
  }
}

/** Auto-connect is attempted once per page load, not on every visit to the screen. */
export function autoConnectOnce(): void {
  if (autoConnectTried) return;
  autoConnectTried = true;
  void connectWebdav();
}

/** A listing answered 401: the session is gone, so the screen goes back to its failed state. */
export function markUnauthorized(message: string): void {
  webdavConnection.value = { status: 'failed', message };
}
