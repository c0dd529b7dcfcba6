import type { ConfigService } from '../config/index.js';
import { isHttpUrl } from '../config/rules.js';
import { ArrClient } from './arr.client.js';
import { ArrError } from './arr.errors.js';
import type { ArrTestInput, ArrTestResult } from './arrs.wire.js';

const APP_NAMES = { radarr: 'Radarr', sonarr: 'Sonarr' } as const;

/** The console's side of the arrs: the per-instance connection test (docs/arrs.md, "Connection test"). */
export class ArrsService {
  constructor(private readonly config: Pick<ConfigService, 'get'>) {}

  async testConnection(input: ArrTestInput): Promise<ArrTestResult> {
    const url = input.url.trim();
    let apiKey = input.api_key.trim();
    // The console never receives stored keys: an empty key with a saved instance's name means "its key".
    if (!apiKey && input.name) {
      const saved = this.config.get().arrs[`${input.type}_instances`].find((i) => i.name === input.name);
      apiKey = saved?.api_key ?? '';
    }
    if (!url || !apiKey) return failure('URL and API key are required');
    if (!isHttpUrl(url)) return failure('Invalid URL format');
    const app = APP_NAMES[input.type];
    try {
      const status = await new ArrClient({ type: input.type, url, apiKey }).systemStatus();
      const appName = typeof status.appName === 'string' ? status.appName : '';
      if (!appName) return failure(`Not a ${app} API: system/status has no appName`);
      if (appName.toLowerCase() !== input.type) return failure(`This is ${appName}, not ${app}`);
      return { success: true, message: 'Connection successful' };
    } catch (err) {
      return failure(describe(err, app));
    }
  }
}

const failure = (error: string): ArrTestResult => ({ success: false, message: error, error });

function describe(err: unknown, app: string): string {
  if (!(err instanceof ArrError)) return err instanceof Error ? err.message : String(err);
  switch (err.kind) {
    case 'unauthorized':
      return `The API key was refused (HTTP ${err.status})`;
    case 'not_found':
      return `No ${app} v3 API at this URL (HTTP 404)`;
    case 'timeout':
      return 'No answer within 10 seconds';
    case 'unreachable':
      return `Could not connect: ${err.message.replace(/^.*: unreachable \((.*)\)$/, '$1')}`;
    default:
      return err.message.replace(/^\S+ GET \/api\/v3\/system\/status: /, '');
  }
}
