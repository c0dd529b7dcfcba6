/**
 * The GF(2^16) multiply-add of the PAR2 solve, from our addon appliance/par2/native when it is built (SSSE3 or AVX2
 * split-table kernels picked at load by CPU, docs/par2.md "Speed"), else the pure TypeScript one of gf16.ts. Both
 * compute dst ^= factor * src over little-endian 16-bit words; the addon is many times faster.
 */
import { createRequire } from 'node:module';
import { addonPath } from '../addons/addon-path.js';
import { mulAdd as mulAddPure } from './gf16.js';

interface SpoolGf16Addon {
  mulAdd(dst: Uint8Array, src: Uint8Array, factor: number, kernel?: number): void;
  mulAddMany(dsts: Uint8Array[], srcs: Uint8Array[], factors: Uint16Array, kernel?: number): void;
  kernels(): string[];
}

function load(): SpoolGf16Addon | string {
  const path = addonPath(import.meta.url, 'par2', 'spool_gf16.node');
  if (!path) return 'the GF(2^16) addon is not built (npm run build:native)';
  try {
    return createRequire(import.meta.url)(path) as SpoolGf16Addon;
  } catch (e) {
    return `the GF(2^16) addon failed to load (${(e as Error).message}); run: npm run build:native`;
  }
}

const loaded = load();

/** The addon itself (tests pick its kernels), or undefined when it is not built. */
export const gf16Addon: SpoolGf16Addon | undefined = typeof loaded === 'string' ? undefined : loaded;

/** Why PAR2 repair runs on the TypeScript multiply-add ('' when the addon is loaded). */
export const gf16NativeUnavailable = typeof loaded === 'string' ? loaded : '';

/** 'avx2', 'ssse3' or 'scalar' (the addon's best kernel on this CPU), or 'typescript'. */
export const gf16Backend: string = gf16Addon ? gf16Addon.kernels()[0]! : 'typescript';

/**
 * dsts[j] ^= sum over b of factors[j * srcs.length + b] * srcs[b]: every region of one length, a multiple of 4.
 * The addon does it in column blocks so the sources stay in cache; the fallback loops over gf16.ts's mulAdd.
 */
export function mulAddMany(dsts: Uint8Array[], srcs: Uint8Array[], factors: Uint16Array): void {
  if (factors.length !== dsts.length * srcs.length)
    throw new RangeError(`mulAddMany needs ${dsts.length * srcs.length} factors, got ${factors.length}`);
  for (const r of [...dsts, ...srcs])
    if (r.length !== dsts[0]!.length || r.length % 4 !== 0)
      throw new RangeError('mulAddMany needs regions of one length, a multiple of 4');
  if (gf16Addon) return gf16Addon.mulAddMany(dsts, srcs, factors);
  for (let j = 0; j < dsts.length; j++)
    for (let b = 0; b < srcs.length; b++) mulAddPure(dsts[j]!, srcs[b]!, factors[j * srcs.length + b]!);
}

/** dst ^= factor * src (equal lengths, a multiple of 4), on the addon when it is built. */
export function mulAdd(dst: Uint8Array, src: Uint8Array, factor: number): void {
  if (!gf16Addon) return mulAddPure(dst, src, factor);
  if (dst.length !== src.length || dst.length % 4 !== 0)
    throw new RangeError(`mulAdd needs equal lengths that are multiples of 4 (${dst.length}, ${src.length})`);
  gf16Addon.mulAdd(dst, src, factor);
}
