import type { ArrInstanceView, ArrsConfigView, ArrTestInput, ArrType } from '../../../../api/types';

/** One instance being edited: the saved view plus a key typed now ('' keeps the stored one). */
export interface ArrInstanceForm extends Omit<ArrInstanceView, 'api_key_set'> {
  api_key: string;
  api_key_set: boolean;
  /** The name it was saved under (the server finds its stored key by it); '' for a new instance. */
  saved_name: string;
}

export interface ArrsForm {
  enabled: boolean;
  radarr_instances: ArrInstanceForm[];
  sonarr_instances: ArrInstanceForm[];
}

export const TYPE_LABEL: Record<ArrType, string> = { radarr: 'Radarr', sonarr: 'Sonarr' };
export const listKey = (type: ArrType) => `${type}_instances` as const;
export const TEST_FIELDS_REQUIRED = 'URL and API key are required';

export function formFromConfig(arrs: Partial<ArrsConfigView> | undefined): ArrsForm {
  const list = (type: ArrType): ArrInstanceForm[] =>
    (arrs?.[listKey(type)] ?? []).map((i) => ({
      name: i.name,
      type,
      url: i.url,
      api_key: '',
      api_key_set: !!i.api_key_set,
      enabled: i.enabled !== false,
      root_folder: i.root_folder ?? '',
      saved_name: i.name,
    }));
  return { enabled: !!arrs?.enabled, radarr_instances: list('radarr'), sonarr_instances: list('sonarr') };
}

/** Defaults of the add-instance modal (spec: new instances are Radarr and enabled). */
export function newInstance(): ArrInstanceForm {
  return {
    name: '',
    type: 'radarr',
    url: '',
    api_key: '',
    api_key_set: false,
    enabled: true,
    root_folder: '',
    saved_name: '',
  };
}

/** The modal adds only with a name, a URL and an API key. */
export const modalComplete = (d: ArrInstanceForm) => !!d.name.trim() && !!d.url.trim() && !!d.api_key.trim();

function validUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The issues that block Save, in the server's words (appliance/config/rules.ts); none while arrs are off. */
export function validationIssues(form: ArrsForm): string[] {
  if (!form.enabled) return [];
  const issues: string[] = [];
  const names: string[] = [];
  for (const type of ['radarr', 'sonarr'] as const) {
    form[listKey(type)].forEach((inst, i) => {
      const prefix = `${TYPE_LABEL[type]} instance #${i + 1}`;
      if (!inst.name.trim()) issues.push(`${prefix}: Name is required`);
      else names.push(inst.name.trim());
      if (!inst.url.trim()) issues.push(`${prefix}: URL is required`);
      else if (!validUrl(inst.url.trim())) issues.push(`${prefix}: Invalid URL format`);
      if (!inst.api_key.trim() && !inst.api_key_set) issues.push(`${prefix}: API key is required`);
    });
  }
  for (const n of new Set(names.filter((n, i) => names.indexOf(n) !== i))) {
    issues.push(`Instance name "${n}" is used multiple times`);
  }
  return issues;
}

/** PATCH /config/arrs payload: an untouched key is sent empty, which keeps the stored one. */
export function payloadOf(form: ArrsForm): Record<string, unknown> {
  const strip = ({ api_key_set: _s, saved_name: _n, ...i }: ArrInstanceForm) => ({
    ...i,
    name: i.name.trim(),
    url: i.url.trim(),
    api_key: i.api_key.trim(),
    root_folder: i.root_folder.trim(),
  });
  return {
    enabled: form.enabled,
    radarr_instances: form.radarr_instances.map(strip),
    sonarr_instances: form.sonarr_instances.map(strip),
  };
}

/** The connection test body, or undefined when the URL or the key (typed or stored) is missing. */
export function testInput(inst: ArrInstanceForm): ArrTestInput | undefined {
  const url = inst.url.trim();
  const key = inst.api_key.trim();
  if (!url || (!key && !(inst.api_key_set && inst.saved_name))) return undefined;
  return key ? { type: inst.type, url, api_key: key } : { type: inst.type, url, api_key: '', name: inst.saved_name };
}
