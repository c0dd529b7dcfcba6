import { Outlet } from 'react-router-dom';
import { useSignals } from '@preact/signals-react/runtime';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { Footer } from './Footer';
import { sidebarCollapsed } from './uiState';

export function AppLayout() {
  useSignals();
  return (
    <div className={`app-shell${sidebarCollapsed.value ? ' is-collapsed' : ''}`}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Sidebar />
      <div className="app-shell__main">
        <TopBar />
        <main id="main" className="content" tabIndex={-1}>
          <Outlet />
        </main>
        <Footer />
      </div>
    </div>
  );
}
