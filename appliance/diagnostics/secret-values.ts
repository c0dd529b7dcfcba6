import { MASKED_SECRET, redact, SECRET_KEYS, type SpoolConfig } from '../config/index.js';

/** Every secret string the config holds, found by walking SECRET_KEYS (config/secrets.ts). */
export function secretValues(config: SpoolConfig): string[] {
  const out: string[] = [];
  for (const key of SECRET_KEYS) collect(config, key.split('.'), out);
  const url = config.metadata.database_url;
  if (url) {
    try {
      const password = decodeURIComponent(new URL(url).password);
      if (password) out.push(password);
    } catch {
      // an unparsable URL is taken whole below
    }
  }
  return [...new Set(out.filter((s) => s.length > 0))];
}

function collect(node: unknown, path: string[], out: string[]): void {
  if (node === null || node === undefined) return;
  if (path.length === 0) {
    if (typeof node === 'string') out.push(node);
    else if (Array.isArray(node)) for (const v of node) if (typeof v === 'string') out.push(v);
    return;
  }
  const [head, ...rest] = path as [string, ...string[]];
  const list = head.endsWith('[]');
  const child = (node as Record<string, unknown>)[list ? head.slice(0, -2) : head];
  if (list && Array.isArray(child)) for (const entry of child) collect(entry, rest, out);
  else if (!list) collect(child, rest, out);
}

/** Keys that hold a secret by their name: hidden even when a new one is missing from SECRET_KEYS. */
const SECRET_NAME = /(pass(word)?|secret|token|api_?key|private_?key)s?$/i;

/**
 * The config for a support bundle: redacted as the API answers it (secrets become `<name>_set`), then any value
 * still under a secret-sounding key masked, and every known secret string masked wherever it appears.
 */
export function bundleConfig(config: SpoolConfig): unknown {
  return scrubObject(redact(config), secretValues(config));
}

function scrubObject(node: unknown, secrets: readonly string[]): unknown {
  if (Array.isArray(node)) return node.map((v) => scrubObject(v, secrets));
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (SECRET_NAME.test(k) && (typeof v === 'string' || Array.isArray(v))) out[k] = MASKED_SECRET;
      else out[k] = scrubObject(v, secrets);
    }
    return out;
  }
  return typeof node === 'string' ? scrubText(node, secrets) : node;
}

/** `text` with every secret string replaced by the masked placeholder. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join(MASKED_SECRET);
  return out;
}
