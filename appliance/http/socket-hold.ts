import { readFileSync } from 'node:fs';

/** Linux's defaults: `net.ipv4.tcp_wmem` max (the send buffer a socket may grow to). */
const DEFAULT_SEND_BUFFER_MAX = 4 * 1024 * 1024;
/**
 * What a client's own receive buffer may hold unread on top of the send buffer. Measured on loopback (uWS, a client
 * that read 32-256 KiB and then stopped): the socket took 4.0-4.8 MB more than the client had read, with a 4 MiB
 * send buffer; 2 MiB leaves room (docs/streaming.md, "What an unproven GET may fetch").
 */
const RECEIVE_ALLOWANCE = 2 * 1024 * 1024;

let cached: number | undefined;

/**
 * The most a connection takes from the server for a client that reads nothing more: the kernel's largest send
 * buffer (`net.ipv4.tcp_wmem`, read once from /proc; a container reads its own network namespace's) plus
 * RECEIVE_ALLOWANCE. A response whose socket took more than this was read by its client.
 */
export function socketHoldBytes(): number {
  if (cached === undefined) {
    let text: string | undefined;
    try {
      text = readFileSync('/proc/sys/net/ipv4/tcp_wmem', 'utf8');
    } catch {
      // not Linux, or /proc not mounted: Linux's default
    }
    cached = holdFromTcpWmem(text);
  }
  return cached;
}

/** socketHoldBytes from the text of `net.ipv4.tcp_wmem` ("min default max"); Linux's default max when unreadable. */
export function holdFromTcpWmem(text: string | undefined): number {
  const max = Number(text?.trim().split(/\s+/)[2]);
  return (Number.isFinite(max) && max > 0 ? max : DEFAULT_SEND_BUFFER_MAX) + RECEIVE_ALLOWANCE;
}
