import { PROVIDER_DEFAULTS as SERVER_PROVIDER_DEFAULTS, type ProviderConfig } from '../../serverConfig';
import { caPemError } from './caPem';
import type { Provider, ProviderTestInput } from './providersApi';

/** The provider form's values: the server's provider entry (docs/console-contract.md §3) without its id; the password is write-only. */
export type ProviderForm = Omit<ProviderConfig, 'id'>;

/** docs/console-contract.md §9 provider defaults, the server's own. */
export const PROVIDER_DEFAULTS: ProviderForm = SERVER_PROVIDER_DEFAULTS;

export const PORT_RANGE = { min: 1, max: 65535 } as const;
export const CONNECTIONS_RANGE = { min: 1, max: 50 } as const;

/** docs/console-contract.md §4: a change of any of these invalidates a passed connection test. */
export const TEST_FIELDS = ['host', 'port', 'username', 'password', 'tls', 'insecure_tls', 'ca'] as const;

export const MISSING_FOR_TEST = 'Please fill in all required fields before testing connection';
export const TEST_REQUIRED = 'Please test the connection successfully before saving';

export function formFromProvider(p: Provider): ProviderForm {
  return {
    host: p.host,
    port: p.port,
    username: p.username,
    password: '',
    max_connections: p.max_connections,
    tls: p.tls,
    insecure_tls: p.insecure_tls,
    ca: p.ca ?? '',
    enabled: p.enabled,
    is_backup_provider: p.is_backup_provider,
    retention_days: p.retention_days ?? null,
    retention_policy: p.retention_policy ?? 'last',
    backbone: p.backbone ?? '',
    block_account: p.block_account ?? false,
    required: p.required ?? false,
    quota_period: p.quota_period ?? 'none',
    quota_bytes: p.quota_bytes ?? null,
    quota_reset_day: p.quota_reset_day ?? 1,
    quota_used_bytes: p.quota_used_bytes ?? 0,
    expires_on: p.expires_on ?? null,
    candidate: p.candidate ?? false,
    fit_stats_per_hour: p.fit_stats_per_hour ?? PROVIDER_DEFAULTS.fit_stats_per_hour,
    price_per_month: p.price_per_month ?? null,
    price_per_block: p.price_per_block ?? null,
    block_size_gb: p.block_size_gb ?? null,
  };
}

export function resetsTest(field: keyof ProviderForm): boolean {
  return (TEST_FIELDS as readonly string[]).includes(field);
}

/** docs/console-contract.md §5: host, username and password are needed to test; in edit mode an empty password means the saved one. */
export function canTest(form: ProviderForm, editing: boolean): boolean {
  return form.host.trim() !== '' && form.username.trim() !== '' && (editing || form.password !== '');
}

export function testInput(form: ProviderForm, editingId: string | undefined): ProviderTestInput {
  return {
    host: form.host.trim(),
    port: form.port,
    username: form.username.trim(),
    password: form.password,
    // Insecure TLS only means something with TLS on (docs/console-contract.md §5 shows it only then).
    tls: form.tls,
    insecure_tls: form.tls && form.insecure_tls,
    ca: caOf(form),
    ...(editingId && form.password === '' ? { id: editingId } : {}),
  };
}

/** Field errors that block saving (the ranges of docs/console-contract.md §5). */
export function formErrors(form: ProviderForm): Partial<Record<keyof ProviderForm, string>> {
  const errors: Partial<Record<keyof ProviderForm, string>> = {};
  if (!Number.isInteger(form.port) || form.port < PORT_RANGE.min || form.port > PORT_RANGE.max)
    errors.port = 'Port must be from 1 to 65535';
  if (
    !Number.isInteger(form.max_connections) ||
    form.max_connections < CONNECTIONS_RANGE.min ||
    form.max_connections > CONNECTIONS_RANGE.max
  )
    errors.max_connections = 'Max connections must be from 1 to 50';
  const caError = caPemError(form.ca ?? '');
  if (caError) errors.ca = caError;
  return errors;
}

/** The body of POST /providers: the whole form, trimmed. */
export function createBody(form: ProviderForm): Record<string, unknown> {
  return {
    ...form,
    host: form.host.trim(),
    username: form.username.trim(),
    insecure_tls: form.tls && form.insecure_tls,
    ca: caOf(form),
  };
}

/** The CA only means something with TLS on; blank is "none". */
function caOf(form: ProviderForm): string {
  const ca = form.ca ?? '';
  return form.tls && ca.trim() !== '' ? ca.trim() + '\n' : '';
}

/** docs/console-contract.md §7: PUT /providers/{id} carries only the fields that changed; an empty password keeps the saved one. */
export function changedFields(initial: ProviderForm, form: ProviderForm): Record<string, unknown> {
  const next = createBody(form);
  const before = createBody(initial);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(next) as (keyof ProviderForm)[]) {
    if (key === 'password') continue;
    if (next[key] !== before[key]) out[key] = next[key];
  }
  if (form.password !== '') out.password = form.password;
  return out;
}
