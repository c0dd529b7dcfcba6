import type { SpoolConfig } from '../../api/types';
import type { ConfigSectionId } from './sections';
import { WebdavSection } from './sections/WebdavSection';
import { AuthSection } from './sections/AuthSection';
import { RcloneSection } from './sections/RcloneSection';
import { MetadataSection } from './sections/MetadataSection';
import { StreamingSection } from './sections/StreamingSection';
import { HealthSection } from './sections/HealthSection';
import { ImportSection } from './sections/ImportSection';
import { ProvidersSection } from './sections/ProvidersSection';
import { SabnzbdSection } from './sections/SabnzbdSection';
import { ArrsSection } from './sections/ArrsSection';
import { SystemSection } from './sections/SystemSection';
import { LogSection } from './sections/LogSection';
import { NotificationsSection } from './sections/NotificationsSection';
import { MediaServersSection } from './sections/MediaServersSection';

/** Picks the component of one section; each lives in its own file under sections/. */
export function SectionView({ section, config }: { section: ConfigSectionId; config: SpoolConfig }) {
  switch (section) {
    case 'webdav':
      return <WebdavSection config={config} />;
    case 'auth':
      return <AuthSection config={config} />;
    case 'rclone':
      return <RcloneSection config={config} />;
    case 'metadata':
      return <MetadataSection config={config} />;
    case 'streaming':
      return <StreamingSection config={config} />;
    case 'health':
      return <HealthSection config={config} />;
    case 'import':
      return <ImportSection config={config} />;
    case 'providers':
      return <ProvidersSection />;
    case 'sabnzbd':
      return <SabnzbdSection config={config} />;
    case 'arrs':
      return (
        <>
          <ArrsSection config={config} />
          <MediaServersSection config={config} />
        </>
      );
    case 'system':
      return (
        <>
          <SystemSection config={config} />
          <LogSection config={config} />
          <NotificationsSection config={config} />
        </>
      );
  }
}
