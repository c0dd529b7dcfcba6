import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { SevenZipKdf } from '../appliance/archive/sevenzip-key.js';
import type { SevenZipKeyTaskInput, SevenZipKeyTaskOutput } from './sevenzip-key.task.js';

/** The task file next to this one: `.ts` under tsx, `.js` once compiled. */
export const SEVENZIP_KEY_TASK = fileURLToPath(
  new URL(`./sevenzip-key.task${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

/** Derived keys kept per (password, salt, rounds): a set's volumes and members, and a retried import, derive once. */
const CACHED_KEYS = 64;

/**
 * One thread, started on the first derivation and gone a second after the last (keys are rare: only 7z AES
 * archives need them), so an idle process holds no worker.
 */
export function createSevenZipKeyPool(): Piscina {
  return new Piscina({ filename: SEVENZIP_KEY_TASK, minThreads: 0, maxThreads: 1, idleTimeout: 1_000 });
}

/**
 * A `SevenZipKdf` that derives in `pool`, with a small cache keyed by (password, salt, rounds), least recently used
 * dropped first. A failed derivation is not cached.
 */
export function sevenZipKeysIn(
  pool: Piscina,
): SevenZipKdf & { inWorker(input: SevenZipKeyTaskInput): Promise<SevenZipKeyTaskOutput> } {
  const cache = new Map<string, Promise<string>>();
  const inWorker = (input: SevenZipKeyTaskInput) => pool.run(input) as Promise<SevenZipKeyTaskOutput>;
  const derive = (password: string, salt: string, kdfLog2: number): Promise<string> => {
    const key = JSON.stringify([password, salt, kdfLog2]);
    let hit = cache.get(key);
    if (hit) {
      cache.delete(key);
    } else {
      hit = inWorker({ password, salt, kdfLog2 }).then((out) => out.key);
      hit.catch(() => cache.get(key) === hit && cache.delete(key));
      if (cache.size >= CACHED_KEYS) cache.delete(cache.keys().next().value!);
    }
    cache.set(key, hit);
    return hit;
  };
  return Object.assign(derive, { inWorker });
}
