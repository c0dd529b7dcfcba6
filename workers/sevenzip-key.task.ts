import { threadId } from 'node:worker_threads';
import { deriveSevenZipKey } from '../appliance/archive/sevenzip-key.js';

/**
 * Piscina task: one 7zAES key derivation (2^kdfLog2 rounds of SHA-256, 2^19 by 7-Zip's default) off the main
 * thread, which keeps serving streams meanwhile. Pure: no I/O, no config. The thread id says where it ran.
 */
export interface SevenZipKeyTaskInput {
  password: string;
  /** hex */
  salt: string;
  kdfLog2: number;
}

export interface SevenZipKeyTaskOutput {
  /** hex */
  key: string;
  threadId: number;
}

export default function sevenZipKeyTask(input: SevenZipKeyTaskInput): SevenZipKeyTaskOutput {
  return { key: deriveSevenZipKey(input.password, input.salt, input.kdfLog2), threadId };
}
