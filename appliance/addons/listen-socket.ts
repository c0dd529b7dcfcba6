/**
 * The send buffer of one of the process's listening TCP sockets, through our own addon (appliance/addons/native,
 * spool_memory.node, src/listen-socket.cc): uWebSockets.js exposes neither its sockets' descriptors nor their
 * options. Why Spool sets it: appliance/http/socket-hold.ts and docs/streaming.md ("What an unproven GET may fetch").
 */
import { nativeAddon } from './native-addon.js';

interface ListenSocketAddon {
  /** SO_SNDBUF on the listening socket(s) of `port`: what the kernel reports back, or why it could not. */
  setListenSendBuffer(port: number, bytes: number): number | string;
  /** getsockopt(fd, SO_SNDBUF), or -errno. */
  sendBufferOf(fd: number): number;
}

const loaded = nativeAddon<ListenSocketAddon>(['setListenSendBuffer', 'sendBufferOf']);

/**
 * Sets SO_SNDBUF to `bytes` on this process's listening TCP socket(s) on `port` (IPv4 or IPv6). Every socket it
 * accepts from then on inherits the buffer, with send-buffer autotuning off. The buffer the kernel reports back
 * (Linux doubles what was asked, for its bookkeeping), or a sentence saying why not: no addon, no listening socket
 * on that port, the kernel refused. Never throws for a socket problem.
 */
export function setListenSendBuffer(port: number, bytes: number): number | string {
  if (typeof loaded === 'string') return loaded;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return `not a TCP port: ${port}`;
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 0x7fffffff) return `not a buffer size: ${bytes}`;
  return loaded.setListenSendBuffer(port, bytes);
}

/** The send buffer of the socket on descriptor `fd` as the kernel reports it; a sentence when it cannot say. */
export function sendBufferOf(fd: number): number | string {
  if (typeof loaded === 'string') return loaded;
  const bytes = loaded.sendBufferOf(fd);
  return bytes >= 0 ? bytes : `getsockopt(SO_SNDBUF) on descriptor ${fd} failed (errno ${-bytes})`;
}
