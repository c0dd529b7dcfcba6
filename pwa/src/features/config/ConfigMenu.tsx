import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { Icon } from '../../components/Icon';
import { CONFIG_SECTIONS } from './sections';

export function ConfigMenu() {
  const ref = useRef<HTMLElement>(null);
  const { pathname } = useLocation();

  // On phones the menu is one scrolling row: keep the open section in view.
  useEffect(() => {
    const active = ref.current?.querySelector<HTMLElement>('a.is-active');
    const list = active?.closest('ul');
    if (!active || !list || list.scrollWidth <= list.clientWidth) return;
    list.scrollLeft = active.offsetLeft - (list.clientWidth - active.offsetWidth) / 2;
  }, [pathname]);

  return (
    <nav className="config-menu" aria-label="Configuration sections" ref={ref}>
      <ul>
        {CONFIG_SECTIONS.map((s) => (
          <li key={s.id}>
            <NavLink to={`/config/${s.id}`} className={({ isActive }) => (isActive ? 'is-active' : undefined)}>
              <Icon name={s.icon} size={16} />
              {s.title}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
