import { threadId } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { mulAddMany } from '../appliance/par2/gf16-native.js';

/**
 * Piscina task: the GF(2^16) multiply-adds of one batch of a strip of the PAR2 streaming solve (docs/par2.md
 * "Streaming repair"), off the main thread so streams and listings keep being served during a repair. The regions'
 * ArrayBuffers are moved here and moved back: no byte is copied either way. Pure: no I/O, no config.
 */
export interface Par2StripTaskInput {
  dsts: Uint8Array[];
  srcs: Uint8Array[];
  factors: Uint16Array;
}

export interface Par2StripTaskOutput {
  dsts: Uint8Array[];
  srcs: Uint8Array[];
  threadId: number;
}

export default function par2StripTask(input: Par2StripTaskInput): unknown {
  mulAddMany(input.dsts, input.srcs, input.factors);
  const value: Par2StripTaskOutput = { dsts: input.dsts, srcs: input.srcs, threadId };
  const buffers = [...new Set([...input.dsts, ...input.srcs].map((v) => v.buffer as ArrayBuffer))];
  return move({
    get [transferableSymbol]() {
      return buffers;
    },
    get [valueSymbol]() {
      return value;
    },
  });
}
