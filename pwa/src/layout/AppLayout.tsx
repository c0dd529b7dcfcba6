import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useSignals } from '@preact/signals-react/runtime';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { Footer } from './Footer';
import { sidebarCollapsed } from './uiState';
import { startLive } from '../lib/live';

export function AppLayout() {
  useSignals();
  const queryClient = useQueryClient();
  // The live channel is open while the console's screens are (signed in, or open access).
  useEffect(() => startLive(queryClient), [queryClient]);
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
