import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { AsyncMulAdd } from '../appliance/par2/stream-solve.js';
import type { Par2StripTaskInput, Par2StripTaskOutput } from './par2-strip.task.js';

/** The task file next to this one: `.ts` under tsx, `.js` once compiled. */
export const PAR2_STRIP_TASK = fileURLToPath(
  new URL(`./par2-strip.task${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

/**
 * One thread (repairs run one at a time, and the machine's other core serves streams), started with the first
 * strip and gone a second after the last, so an idle process holds no worker.
 */
export function createPar2StripPool(): Piscina {
  return new Piscina({ filename: PAR2_STRIP_TASK, minThreads: 0, maxThreads: 1, idleTimeout: 1_000 });
}

/**
 * An AsyncMulAdd running in `pool`: the regions' ArrayBuffers are transferred to the worker and back (each strip
 * region must own its ArrayBuffer, as the streaming solve's do). The caller's views are detached meanwhile.
 */
export function mulAddIn(pool: Piscina): AsyncMulAdd & { lastThreadId?: number } {
  const run: AsyncMulAdd & { lastThreadId?: number } = async (dsts, srcs, factors) => {
    const input: Par2StripTaskInput = { dsts, srcs, factors };
    const transferList = [...new Set([...dsts, ...srcs].map((v) => v.buffer as ArrayBuffer))];
    const out = (await pool.run(input, { transferList })) as Par2StripTaskOutput;
    run.lastThreadId = out.threadId;
    return out;
  };
  return run;
}
