import type { ProviderConfig } from '../../../appliance/nntp/index.js';
import type { InnServer } from './server.js';

/** A provider entry (config.yaml or NntpPool) pointing at the test INN; `over` changes single fields. */
export function innProvider(inn: InnServer, over: Partial<ProviderConfig> = {}): ProviderConfig {
  return {
    id: 'inn',
    host: inn.host,
    port: inn.port,
    username: inn.username,
    password: inn.password,
    max_connections: 8,
    tls: false,
    insecure_tls: false,
    enabled: true,
    is_backup_provider: false,
    ...over,
  };
}
