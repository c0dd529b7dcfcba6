import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useSignals } from '@preact/signals-react/runtime';
import { auth, canAdminister, logout } from '../auth/authStore';
import { Icon } from '../components/Icon';
import { Badge } from '../components/Badge';

function initials(name: string): string {
  return name.slice(0, 2).toUpperCase();
}

/** The user dropdown of docs/console-contract.md §2: name, email, Admin badge, provider, Manage Users, Logout. */
export function UserMenu() {
  useSignals();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = auth.value;
  const user = state.user;

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!state.loginRequired) {
    return (
      <span className="chip" title="auth.login_required is false: everyone has full access">
        <Icon name="shield" size={14} /> Open access
      </span>
    );
  }
  if (!user) return null;

  const onLogout = async () => {
    setBusy(true);
    await logout();
    queryClient.clear();
    setBusy(false);
    setOpen(false);
    navigate('/login', { replace: true });
  };

  return (
    <div className="user-menu" ref={ref}>
      <button
        type="button"
        className="user-menu__trigger"
        aria-label={`${user.name} account menu`}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls="user-menu-panel"
        onClick={() => setOpen((v) => !v)}
      >
        <span className="avatar" aria-hidden="true">
          {initials(user.name)}
        </span>
        <span className="user-menu__name">{user.name}</span>
        <Icon name="chevronDown" size={16} />
      </button>
      {open && (
        <div className="user-menu__panel" id="user-menu-panel">
          <div className="user-menu__identity">
            <p className="user-menu__fullname">
              {user.name} {user.is_admin && <Badge tone="accent">Admin</Badge>}
              {user.role === 'read-only' && <Badge>Read-only</Badge>}
            </p>
            {user.email && <p className="muted small">{user.email}</p>}
            {user.provider && <p className="muted small">via {user.provider}</p>}
          </div>
          {canAdminister(state) && (
            <Link to="/admin" className="user-menu__item" onClick={() => setOpen(false)}>
              <Icon name="users" size={16} /> Manage Users
            </Link>
          )}
          <button type="button" className="user-menu__item" onClick={onLogout} disabled={busy}>
            <Icon name="logout" size={16} /> {busy ? 'Logging out...' : 'Logout'}
          </button>
        </div>
      )}
    </div>
  );
}
