import { signal } from '@preact/signals-react';
import { ApiError } from '../api/client';
import { authApi, type RegisterInput } from '../api/auth';
import type { User } from '../api/types';
import { clearLastKnown } from '../lib/lastKnown';

/**
 * The auth state machine of docs/console-contract.md §4: unknown → loading → authenticated | logged_out (with an error on failure).
 * When the server says login is not required, the visitor stays logged out and everything is open.
 */
export type AuthStatus = 'unknown' | 'loading' | 'authenticated' | 'logged_out';

export interface AuthState {
  status: AuthStatus;
  user: User | null;
  loginRequired: boolean;
  /** The server could not be reached while starting up ('Connection to server failed.'). */
  connectionFailed: boolean;
  error: string | null;
}

export const initialAuthState: AuthState = {
  status: 'unknown',
  user: null,
  loginRequired: true,
  connectionFailed: false,
  error: null,
};

export const auth = signal<AuthState>(initialAuthState);

function patch(next: Partial<AuthState>): void {
  auth.value = { ...auth.value, ...next };
}

function messageOf(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback;
}

/** Accepts `{user}` or a bare user object: either is a user in the response. */
function userFrom(data: unknown): User | null {
  if (!data || typeof data !== 'object') return null;
  if ('user' in data && data.user && typeof data.user === 'object') return data.user as User;
  if ('id' in data && 'name' in data) return data as User;
  return null;
}

export async function initAuth(): Promise<void> {
  patch({ status: 'loading', error: null, connectionFailed: false });
  let loginRequired: boolean;
  try {
    loginRequired = (await authApi.config()).login_required !== false;
  } catch (err) {
    patch({ status: 'logged_out', user: null, connectionFailed: true, error: messageOf(err, 'Connection failed') });
    return;
  }
  if (!loginRequired) {
    patch({ status: 'logged_out', user: null, loginRequired: false });
    return;
  }
  try {
    const user = await authApi.currentUser();
    patch({ status: 'authenticated', user, loginRequired: true });
  } catch (err) {
    const unreachable = err instanceof ApiError && err.isNetworkError;
    const expected = err instanceof ApiError && (err.status === 401 || err.status === 403);
    patch({
      status: 'logged_out',
      user: null,
      loginRequired: true,
      connectionFailed: unreachable,
      error: expected ? null : messageOf(err, 'Failed to load user'),
    });
  }
}

/** Throws with the server's message (or 'Login failed') so the form can show its 'Login Failed' box. */
export async function login(username: string, password: string): Promise<User> {
  let user: User | null;
  try {
    user = userFrom(await authApi.login(username, password));
  } catch (err) {
    throw new Error(messageOf(err, 'Login failed'), { cause: err });
  }
  if (!user) throw new Error('Login failed');
  patch({ status: 'authenticated', user, error: null, connectionFailed: false });
  return user;
}

/**
 * Registers; the server signs the new account in (session cookie + user). Should an answer carry no user, sign in
 * with the same credentials so the account still lands on the Dashboard.
 */
export async function register(input: RegisterInput): Promise<User> {
  let user: User | null;
  try {
    user = userFrom(await authApi.register(input));
  } catch (err) {
    throw new Error(messageOf(err, 'Registration failed'), { cause: err });
  }
  if (!user) return login(input.username, input.password);
  patch({ status: 'authenticated', user, error: null, connectionFailed: false });
  return user;
}

/** Logout always ends logged out, even when the server call fails. */
export async function logout(): Promise<void> {
  try {
    await authApi.logout();
  } catch {
    // The session is gone for this tab either way.
  } finally {
    clearLastKnown(); // what this user saw is not left for the next one
    patch({ status: 'logged_out', user: null, error: null });
  }
}

/** Token refresh: re-fetches the user; an error is kept in the state. */
export async function refreshUser(): Promise<void> {
  if (!auth.value.loginRequired) return;
  try {
    const user = userFrom(await authApi.refresh()) ?? (await authApi.currentUser());
    patch({ status: 'authenticated', user, error: null });
  } catch (err) {
    patch({ error: messageOf(err, 'Token refresh failed') });
  }
}

/** True when the visitor may use admin screens: admins, or everyone when login is off (docs/console-contract.md §6). */
export function canAdminister(state: AuthState): boolean {
  return !state.loginRequired || state.user?.is_admin === true;
}

/**
 * False for a read-only user (docs/console-contract.md §6): the console hides every action that changes something
 * (the server refuses them anyway with READ_ONLY_USER).
 */
export function canChange(state: AuthState): boolean {
  return !state.loginRequired || state.user?.role !== 'read-only';
}

/** After an admin changes auth.login_required the console follows without a reload. */
export function setLoginRequired(loginRequired: boolean): void {
  patch({ loginRequired });
}
