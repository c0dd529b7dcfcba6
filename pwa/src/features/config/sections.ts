import type { IconName } from '../../components/Icon';

/** The configuration menu of docs/console-contract.md §2, in its order, with its titles. */
export const CONFIG_SECTIONS = [
  { id: 'webdav', title: 'WebDAV Server', icon: 'server' },
  { id: 'auth', title: 'Authentication', icon: 'shield' },
  { id: 'rclone', title: 'Mount & RClone', icon: 'mount' },
  { id: 'metadata', title: 'Metadata', icon: 'database' },
  { id: 'streaming', title: 'Streaming & Downloads', icon: 'stream' },
  { id: 'health', title: 'Health Monitoring', icon: 'health' },
  { id: 'import', title: 'Import Processing', icon: 'download' },
  { id: 'providers', title: 'NNTP Providers', icon: 'plug' },
  { id: 'sabnzbd', title: 'SABnzbd API', icon: 'link' },
  { id: 'arrs', title: 'Radarr/Sonarr Management', icon: 'activity' },
  { id: 'system', title: 'System', icon: 'config' },
] as const satisfies readonly { id: string; title: string; icon: IconName }[];

export type ConfigSectionId = (typeof CONFIG_SECTIONS)[number]['id'];

export function isConfigSection(value: string | undefined): value is ConfigSectionId {
  return CONFIG_SECTIONS.some((s) => s.id === value);
}

export function sectionTitle(id: ConfigSectionId): string {
  return CONFIG_SECTIONS.find((s) => s.id === id)?.title ?? id;
}
