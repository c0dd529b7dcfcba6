import { NavLink } from 'react-router-dom';
import { useSignals } from '@preact/signals-react/runtime';
import { auth, canAdminister } from '../auth/authStore';
import { Icon } from '../components/Icon';
import { NAV_ITEMS } from './navItems';
import { mobileNavOpen, sidebarCollapsed, toggleSidebar } from './uiState';
import { useBadgeCounts } from './badges';

export function Sidebar() {
  useSignals();
  const counts = useBadgeCounts();
  const isAdmin = canAdminister(auth.value);
  const collapsed = sidebarCollapsed.value;
  const items = NAV_ITEMS.filter((item) => !item.adminOnly || isAdmin);

  return (
    <>
      <div
        className={`sidebar-backdrop${mobileNavOpen.value ? ' is-open' : ''}`}
        onClick={() => (mobileNavOpen.value = false)}
        aria-hidden="true"
      />
      <aside
        id="sidebar"
        className={`sidebar${collapsed ? ' is-collapsed' : ''}${mobileNavOpen.value ? ' is-open' : ''}`}
        aria-label="Main navigation"
      >
        <div className="sidebar__brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span className="sidebar__name">Spool</span>
        </div>
        <nav className="sidebar__nav">
          <ul>
            {items.map((item) => {
              const count = item.badge ? counts[item.badge] : 0;
              return (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    end={item.to === '/'}
                    className={({ isActive }) => `nav-link${isActive ? ' is-active' : ''}`}
                    title={collapsed ? item.label : undefined}
                    onClick={() => (mobileNavOpen.value = false)}
                  >
                    <Icon name={item.icon} size={20} />
                    <span className="nav-link__label">{item.label}</span>
                    {item.badge && count > 0 && (
                      <span className="nav-link__badge" aria-label={`${count} need attention`}>
                        {count}
                      </span>
                    )}
                  </NavLink>
                </li>
              );
            })}
          </ul>
        </nav>
        <button
          type="button"
          className="sidebar__collapse"
          onClick={toggleSidebar}
          aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          aria-expanded={!collapsed}
          aria-controls="sidebar"
        >
          <Icon name={collapsed ? 'chevronRight' : 'chevronLeft'} />
          <span className="nav-link__label">Collapse</span>
        </button>
      </aside>
    </>
  );
}
