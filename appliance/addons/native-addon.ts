/**
 * Our one native addon (appliance/addons/native, built as spool_memory.node by `npm run build:native`): memory
 * release (release-memory.ts) and the listening socket's send buffer (listen-socket.ts) live in it. Loaded once
 * for the process; each user asks for the functions it needs, so an addon built from older sources (missing one)
 * says so instead of failing at the first call.
 */
import { createRequire } from 'node:module';
import { addonPath } from './addon-path.js';

let loaded: Record<string, unknown> | string | undefined;

function loadOnce(): Record<string, unknown> | string {
  if (loaded !== undefined) return loaded;
  const path = addonPath(import.meta.url, 'addons', 'spool_memory.node');
  if (!path) return (loaded = 'the memory addon is not built (npm run build:native)');
  try {
    loaded = createRequire(import.meta.url)(path) as Record<string, unknown>;
  } catch (e) {
    loaded = `the memory addon failed to load (${(e as Error).message}); run: npm run build:native`;
  }
  return loaded;
}

/** The addon as `T` when it has every function in `needs`; otherwise a sentence saying why it cannot serve. */
export function nativeAddon<T>(needs: readonly (keyof T & string)[]): T | string {
  const addon = loadOnce();
  if (typeof addon === 'string') return addon;
  if (needs.some((name) => typeof addon[name] !== 'function'))
    return 'the memory addon is older than its sources (npm run build:native)';
  return addon as T;
}
