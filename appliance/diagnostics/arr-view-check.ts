import { ArrClient } from '../arrs/index.js';
import type { SpoolConfig } from '../config/index.js';
import type { DiagnosticFinding } from './diagnostics.wire.js';
import { finding } from './finding.js';

/**
 * The arrs' own checks that say they cannot see where the download client (Spool's SABnzbd API) puts a job
 * (Radarr's and Sonarr's NzbDrone.Core/HealthCheck/Checks): the path is the import dir the history reports.
 */
export const PATH_CHECKS = new Set(['RemotePathMappingCheck', 'DownloadClientRootFolderCheck', 'ImportMechanismCheck']);

/** Asks every enabled arr for its health and reports what it says about the paths Spool hands it. */
export async function arrViewFindings(config: SpoolConfig, timeoutMs = 10_000): Promise<DiagnosticFinding[]> {
  if (!config.arrs.enabled) return [];
  const instances = [...config.arrs.radarr_instances, ...config.arrs.sonarr_instances].filter((a) => a.enabled);
  const where = config.import.import_dir || config.sabnzbd.complete_dir;
  const fix =
    `Mount Spool's import dir (${where}) and the mount (${config.mount_path}) at the same paths in the arr's ` +
    "container as in Spool's, or add a remote path mapping in the arr (Settings > Download Clients) from Spool's " +
    'path to where the arr sees it (docs/sabnzbd.md, "What the arr sees").';
  const per = await Promise.all(
    instances.map(async (a) => {
      const client = new ArrClient({ type: a.type, url: a.url, apiKey: a.api_key, name: a.name, timeoutMs });
      const label = `${a.type === 'radarr' ? 'Radarr' : 'Sonarr'} '${a.name}'`;
      try {
        const said = (await client.health()).filter((h) => PATH_CHECKS.has(h.source) && h.type !== 'ok');
        if (said.length === 0)
          return [finding('arr_paths', 'arrs', 'info', `${label} reports no problem with the download paths.`)];
        return said.map((h) =>
          finding('arr_paths', 'arrs', h.type === 'error' ? 'error' : 'warning', `${label} says: ${h.message}`, fix),
        );
      } catch (err) {
        return [
          finding(
            'arr_paths',
            'arrs',
            'warning',
            `${label} could not be asked about the download paths: ${(err as Error).message}`,
            'Check its URL and API key in Configuration > Radarr/Sonarr (Test connection).',
          ),
        ];
      }
    }),
  );
  return per.flat();
}
