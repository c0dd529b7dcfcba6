/**
 * Delayed-ACK stalls on provider connections, and the one socket option that avoids them (docs/nntp.md,
 * "Delayed ACKs").
 *
 * A server that writes an article as many small writes with Nagle's algorithm on (INN's nnrpd over TLS writes one
 * 16 KiB record per write() and never sets TCP_NODELAY) holds the article's last partial segment until everything
 * before it is acknowledged. Linux, on our side, delays ACKs on a connection it judges interactive ("pingpong":
 * we write a command soon after each response), up to its delayed-ACK timer of 40 ms or more. The article's tail
 * then waits that long: measured against nnrpd -S on loopback, 1-10% of articles took 45-50 ms instead of 3 ms.
 *
 * TCP_QUICKACK=1 takes the socket out of that mode and sends an ACK the kernel was holding. It is set after every
 * batch of commands leaves (NntpConnection.send), and on each read of an article's last QUICK_ACK_TAIL_BYTES
 * (the held tail is under one segment) when no other command waits behind it on the connection (a pipelined
 * reply would fill the segment anyway). Set after writes alone, 14 of 528 articles still stalled; set on every
 * read, none did, but one setsockopt per 16 KiB TLS record cost 0.3 CPU-s/GiB on this VM (an ACK sent on
 * loopback runs the peer's side of it inside the call). The tail rule stalls none either, at about 1 read in 6
 * of a lone 768,000-byte article and none under a deep pipeline.
 *
 * Node has no API for the option: our addon appliance/nntp/native does the setsockopt. Without the addon (not
 * built) connections work as before, stalls included; the server logs it once.
 */
import { createRequire } from 'node:module';
import type net from 'node:net';
import { addonPath } from '../addons/addon-path.js';

/** Reads closer than this to an article's end ACK at once (two loopback segments; many more on a real link). */
export const QUICK_ACK_TAIL_BYTES = 128 * 1024;

interface SpoolTcpAddon {
  /** 0, or the errno of setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, 1). */
  quickAck(fd: number): number;
  /** The kernel's TCP_QUICKACK flag now (1 or 0), or -errno. */
  quickAckState(fd: number): number;
}

function load(): SpoolTcpAddon | string {
  const path = addonPath(import.meta.url, 'nntp', 'spool_tcp.node');
  if (!path) return 'the TCP options addon is not built (npm run build:native)';
  try {
    return createRequire(import.meta.url)(path) as SpoolTcpAddon;
  } catch (e) {
    return `the TCP options addon failed to load (${(e as Error).message}); run: npm run build:native`;
  }
}

const loaded = load();

/** Why quick ACKs are off ('' when the addon is loaded): logged once at startup. */
export const quickAckUnavailable = typeof loaded === 'string' ? loaded : '';

/** The descriptor under a TCP socket or a TLS socket Node opened over one; undefined before it connects. */
export function socketFd(socket: net.Socket): number | undefined {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}

/** Sets TCP_QUICKACK on the socket; false when it could not (no addon, not connected, not TCP). */
export function quickAck(socket: net.Socket): boolean {
  if (typeof loaded === 'string') return false;
  const fd = socketFd(socket);
  return fd !== undefined && loaded.quickAck(fd) === 0;
}

/** The kernel's TCP_QUICKACK flag on the socket now; undefined when it cannot be read (tests). */
export function quickAckState(socket: net.Socket): number | undefined {
  if (typeof loaded === 'string') return undefined;
  const fd = socketFd(socket);
  if (fd === undefined) return undefined;
  const v = loaded.quickAckState(fd);
  return v < 0 ? undefined : v;
}
