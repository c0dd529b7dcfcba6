/** Public surface of the NNTP engine. */
export { NntpPool, type CommandDone, type ConnectionHold, type PoolOptions, type RequestOptions } from './pool.js';
export type { PoolMetrics, ProviderMetrics } from './pool.wire.js';
export { checkProvider, type ProviderCheckInput, type ProviderCheckResult } from './provider-check.js';
export { NntpConnection, type ConnectionOptions } from './connection.js';
export { caPemError } from './tls-ca.js';
export * from './errors.js';
export type { DecodedArticle, ProviderConfig, RequestPriority, YencHeader } from './types.js';
export type { Lane } from './request-queue.js';
export { yencBackend, typescriptBackend, type YencBackend } from './yenc-backend.js';
export { quickAckUnavailable } from './tcp-quickack.js';
