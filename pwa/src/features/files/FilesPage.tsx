import { ComingSoon } from '../../components/ComingSoon';

export function FilesPage() {
  return (
    <ComingSoon
      title="Files"
      icon="files"
      description="Browsing the WebDAV view (info, preview, download, NZB export) arrives with the virtual filesystem."
    />
  );
}
