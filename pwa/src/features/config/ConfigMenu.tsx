import { NavLink } from 'react-router-dom';
import { Icon } from '../../components/Icon';
import { CONFIG_SECTIONS } from './sections';

export function ConfigMenu() {
  return (
    <nav className="config-menu" aria-label="Configuration sections">
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
