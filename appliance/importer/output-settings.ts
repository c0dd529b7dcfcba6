import type { ConfigService } from '../config/index.js';
import { categoryDir } from './import-settings.js';
import type { OutputSettings } from './job-output.service.js';

/** The import strategy's settings, read live (a PATCH applies to the next job). */
export function outputSettings(
  config: ConfigService,
  vfsCompleteDir: string,
  signedLink?: (vfsPath: string) => Promise<string>,
): OutputSettings {
  const c = config.get();
  return {
    strategy: c.import.import_strategy,
    importDir: c.import.import_dir,
    mountPath: c.mount_path,
    vfsCompleteDir,
    strm: {
      baseUrl: c.import.strm_base_url || `http://localhost:${c.webdav.port}`,
      user: c.webdav.user,
      password: c.webdav.password,
      signedLink,
    },
  };
}

/** Every configured category's directory plus the default one: folders the arrs expect to exist. */
export function categoryDirs(config: ConfigService): string[] {
  const cats = config.get().sabnzbd.categories;
  return [categoryDir(cats, null), ...cats.filter((c) => c.name !== '*').map((c) => categoryDir(cats, c.name))];
}
