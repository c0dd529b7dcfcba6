import type { IconName } from '../components/Icon';

export interface NavItem {
  to: string;
  label: string;
  icon: IconName;
  /** Only admins see it when login is required (docs/console-contract.md §6). */
  adminOnly?: boolean;
  badge?: 'queue' | 'health';
}

/** The sidebar items of docs/console-contract.md §2, in order, and Streams (docs/console.md). */
export const NAV_ITEMS: NavItem[] = [
  { to: '/', label: 'Dashboard', icon: 'dashboard' },
  { to: '/queue', label: 'Queue', icon: 'queue', badge: 'queue' },
  { to: '/health', label: 'Health', icon: 'health', badge: 'health' },
  { to: '/files', label: 'Files', icon: 'files' },
  { to: '/streams', label: 'Streams', icon: 'stream' },
  { to: '/config', label: 'Configuration', icon: 'config', adminOnly: true },
];

/** Title shown in the top bar for a path. */
export function titleFor(pathname: string): string {
  if (pathname === '/') return 'Dashboard';
  if (pathname.startsWith('/queue')) return 'Queue Management';
  if (pathname.startsWith('/health')) return 'Health Monitoring';
  if (pathname.startsWith('/files')) return 'Files';
  if (pathname.startsWith('/streams')) return 'Streams';
  if (pathname.startsWith('/admin')) return 'User Management';
  if (pathname.startsWith('/config')) return 'Configuration';
  return 'Spool';
}
