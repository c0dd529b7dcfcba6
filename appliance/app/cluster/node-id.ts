import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * This node's name in the logs, in PostgreSQL's pg_stat_activity (`spool <id>`) and in the leader lease's lines:
 * the one given (main.ts: SPOOL_NODE_ID), else host name, process id and a random part (a restarted process is
 * another node to the others).
 */
export function nodeIdOf(given?: string): string {
  return given || `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}
