import { readFileSync } from 'node:fs';
import { setListenSendBuffer } from '../addons/listen-socket.js';
import type { Logger } from '../logging/logger.js';

/**
 * The send buffer asked for on the listening socket, which every accepted connection inherits (autotuning off);
 * Linux doubles it for its bookkeeping (262,144 B reported). Chosen by measurement (scripts/measure-socket-hold.ts,
 * docs/streaming.md "What an unproven GET may fetch"): a client that read its first tens of KB and stopped leaves
 * its connection holding 387-480 KB (under one article), where 256 KiB held 578 KB; a client reading on loopback
 * gets hundreds of MB/s. A client reaching Spool directly over a link of round trip RTT gets at most about
 * 262,144 B / RTT: 5.2 MB/s (42 Mbit/s) at 50 ms; through a reverse proxy on the same host or LAN it is not capped.
 */
export const LISTEN_SEND_BUFFER_BYTES = 128 * 1024;
/**
 * What a client's own receive buffer may hold unread on top of the small send buffer. Measured on loopback (uWS,
 * a Node client that read 32-256 KiB in 16 or 64 KiB reads and then stopped): the connection took 387,072-1,179,489 B
 * in all, at most 917,345 B beyond the 262,144 B send buffer; 1.5 MiB leaves 655 KB of room. A client that read
 * more at full speed before it stopped grew its receive buffer: ~290 KB read, up to 1,834,796 B taken (at the hold);
 * 1 MiB read, 2.1-4.7 MB taken (it looks proven: docs/streaming.md).
 */
export const SMALL_BUFFER_RECEIVE_ALLOWANCE = 1.5 * 1024 * 1024;

/** Linux's defaults: `net.ipv4.tcp_wmem` max (the send buffer a socket may grow to). */
const DEFAULT_SEND_BUFFER_MAX = 4 * 1024 * 1024;
/**
 * What a client's own receive buffer may hold unread on top of an autotuned send buffer. Measured on loopback (uWS,
 * a client that read 32-256 KiB and then stopped): the socket took 4.0-4.8 MB more than the client had read, with a
 * 4 MiB send buffer; 2 MiB leaves room (docs/streaming.md, "What an unproven GET may fetch").
 */
const RECEIVE_ALLOWANCE = 2 * 1024 * 1024;

/** The send buffer the kernel reported for the listening socket; undefined when it could not be set. */
let effectiveSendBuffer: number | undefined;
let autotunedHold: number | undefined;

/** What became of the send buffer of a listening socket: the size the kernel reports, or why it was not set. */
export type SendBufferOutcome = { bytes: number } | { unavailable: string };

/**
 * Sets LISTEN_SEND_BUFFER_BYTES on the process's listening socket on `port` (http/server.ts, right after it
 * listens) and bases socketHoldBytes on what the kernel reports back. When it cannot (no addon, the kernel refused),
 * the hold is the autotuned one and the caller says so once.
 */
export function limitListenSendBuffer(port: number, bytes = LISTEN_SEND_BUFFER_BYTES): SendBufferOutcome {
  const reported = setListenSendBuffer(port, bytes);
  effectiveSendBuffer = typeof reported === 'number' ? reported : undefined;
  return typeof reported === 'number' ? { bytes: reported } : { unavailable: reported };
}

/**
 * The most a connection takes from the server for a client that reads nothing more. With the listening socket's
 * send buffer set: that buffer as the kernel reports it plus SMALL_BUFFER_RECEIVE_ALLOWANCE. Otherwise the kernel's
 * largest send buffer (`net.ipv4.tcp_wmem`, read once from /proc; a container reads its own network namespace's)
 * plus RECEIVE_ALLOWANCE. A response whose socket took more than this was read by its client.
 */
export function socketHoldBytes(): number {
  if (effectiveSendBuffer !== undefined) return effectiveSendBuffer + SMALL_BUFFER_RECEIVE_ALLOWANCE;
  if (autotunedHold === undefined) {
    let text: string | undefined;
    try {
      text = readFileSync('/proc/sys/net/ipv4/tcp_wmem', 'utf8');
    } catch {
      // not Linux, or /proc not mounted: Linux's default
    }
    autotunedHold = holdFromTcpWmem(text);
  }
  return autotunedHold;
}

/** socketHoldBytes from the text of `net.ipv4.tcp_wmem` ("min default max"); Linux's default max when unreadable. */
export function holdFromTcpWmem(text: string | undefined): number {
  const max = Number(text?.trim().split(/\s+/)[2]);
  return (Number.isFinite(max) && max > 0 ? max : DEFAULT_SEND_BUFFER_MAX) + RECEIVE_ALLOWANCE;
}

/** Logs where the listener stands: its send buffer in the 'listening' line, or a warning that it keeps the default. */
export function logListening(logger: Logger, fields: Record<string, unknown>, sendBuffer: SendBufferOutcome): void {
  if ('bytes' in sendBuffer) {
    logger.info('listening', { ...fields, send_buffer: sendBuffer.bytes, socket_hold: socketHoldBytes() });
    return;
  }
  logger.info('listening', fields);
  logger.warn("the listening socket keeps the kernel's send buffer: a WebDAV GET is proven only after ~6 MiB", {
    reason: sendBuffer.unavailable,
    socket_hold: socketHoldBytes(),
  });
}
