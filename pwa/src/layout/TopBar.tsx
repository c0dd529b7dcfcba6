import { useLocation } from 'react-router-dom';
import { useSignals } from '@preact/signals-react/runtime';
import { Icon } from '../components/Icon';
import { titleFor } from './navItems';
import { mobileNavOpen } from './uiState';
import { UserMenu } from './UserMenu';

export function TopBar() {
  useSignals();
  const { pathname } = useLocation();
  return (
    <header className="topbar">
      <button
        type="button"
        className="icon-button topbar__menu"
        aria-label="Open navigation"
        aria-controls="sidebar"
        aria-expanded={mobileNavOpen.value}
        onClick={() => (mobileNavOpen.value = !mobileNavOpen.value)}
      >
        <Icon name="menu" size={20} />
      </button>
      <h1 className="topbar__title">{titleFor(pathname)}</h1>
      <div className="topbar__actions">
        <UserMenu />
      </div>
    </header>
  );
}
