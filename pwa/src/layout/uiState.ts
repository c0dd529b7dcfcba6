import { signal } from '@preact/signals-react';

const COLLAPSED_KEY = 'spool.sidebar.collapsed';

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(COLLAPSED_KEY) === '1';
  } catch {
    return false;
  }
}

/** Desktop: the sidebar folds to an icon rail (remembered). Mobile: it slides over the page. */
export const sidebarCollapsed = signal<boolean>(readCollapsed());
export const mobileNavOpen = signal<boolean>(false);
export const online = signal<boolean>(typeof navigator === 'undefined' ? true : navigator.onLine);

export function toggleSidebar(): void {
  sidebarCollapsed.value = !sidebarCollapsed.value;
  try {
    localStorage.setItem(COLLAPSED_KEY, sidebarCollapsed.value ? '1' : '0');
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => (online.value = true));
  window.addEventListener('offline', () => (online.value = false));
}
