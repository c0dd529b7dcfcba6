/**
 * Picks the yEnc decoder: the native SIMD `yencode` addon when it loads, else the pure TypeScript one with a
 * warning (decoding then costs several times more CPU). Both expose the same incremental `decodeChunk`.
 */
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import type { Logger } from '../logging/logger.js';
import { decodeChunkPure, type ChunkResult } from './yenc-pure.js';

export interface YencBackend {
  readonly name: 'native' | 'typescript';
  /** Decode from `data` into `output` (which must have room for data.length bytes), carrying `state`. */
  decodeChunk(data: Uint8Array, output: Uint8Array, state: string | null): ChunkResult;
  /** CRC32 of `data` as an unsigned 32-bit number. */
  crc32(data: Uint8Array): number;
}

interface NativeYencode {
  decodeChunk(data: Uint8Array, output: Uint8Array, prev: string | null): ChunkResult;
  crc32(data: Uint8Array): Buffer;
}

const zlibCrc = (zlib as unknown as { crc32?: (d: Uint8Array) => number }).crc32;

export const typescriptBackend: YencBackend = {
  name: 'typescript',
  decodeChunk: decodeChunkPure,
  crc32: zlibCrc ?? crc32Table,
};

let cached: YencBackend | undefined;

export function loadNativeBackend(): YencBackend | Error {
  try {
    const native = createRequire(import.meta.url)('yencode') as NativeYencode;
    return {
      name: 'native',
      decodeChunk: (data, output, state) => native.decodeChunk(data, output, state),
      crc32: (data) => native.crc32(data).readUInt32BE(0),
    };
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** The process-wide decoder, chosen once. */
export function yencBackend(logger?: Logger): YencBackend {
  if (cached) return cached;
  const native = loadNativeBackend();
  if (native instanceof Error) {
    logger?.warn('native yEnc decoder unavailable, using the slower TypeScript decoder', { error: native.message });
    cached = typescriptBackend;
  } else cached = native;
  return cached;
}

let table: Uint32Array | undefined;
function crc32Table(data: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      let c = i;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[i] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 255]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
