import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useSignals } from '@preact/signals-react/runtime';
import { auth, canAdminister } from './authStore';
import { LoadingBlock } from '../components/Spinner';
import { AccessDenied } from './AccessDenied';

/** Where the sign-in page sends the visitor back to. */
export interface FromState {
  from?: string;
}

/** Protected layout gate: signed-in users pass; everyone passes when login is not required (docs/console-contract.md §1). */
export function RequireAuth() {
  useSignals();
  const location = useLocation();
  const state = auth.value;
  if (state.status === 'unknown' || state.status === 'loading') {
    return (
      <div className="fullscreen-center">
        <LoadingBlock label="Connecting to Spool..." />
      </div>
    );
  }
  const open = !state.loginRequired && !state.connectionFailed;
  if (!open && state.status !== 'authenticated') {
    const from: FromState = { from: location.pathname + location.search };
    return <Navigate to="/login" replace state={from} />;
  }
  return <Outlet />;
}

/** Admin-only pages: others see Access Denied (docs/console-contract.md §2, §6). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  useSignals();
  if (!canAdminister(auth.value)) return <AccessDenied />;
  return <>{children}</>;
}
