// What a connection to Spool's HTTP front holds for a client that stops reading, and how fast a reading client is
// served, with the listening socket's send buffer set (appliance/http/socket-hold.ts; figures in docs/streaming.md,
// "What an unproven GET may fetch"). A uWS server (Spool's own listen and Reply.stream) and a Node client on
// loopback. Run: npx tsx scripts/measure-socket-hold.ts [requested send buffers in KiB, e.g. 128 192 256]
import net from 'node:net';
import { listen } from '../appliance/http/server.js';
import { Reply } from '../appliance/http/reply.js';
import { limitListenSendBuffer } from '../appliance/http/socket-hold.js';

const KIB = 1024;
const BODY = 256 * KIB * KIB; // 256 MiB: more than any run takes
const CHUNK = 64 * KIB;
const READS = [32 * KIB, 64 * KIB, 128 * KIB, 256 * KIB, 1024 * KIB];
const RUNS = 3;
const PER_READ = [16 * KIB, 64 * KIB]; // a demuxer's reads (ffmpeg: 32 KiB); Node's own
const STILL_MS = 1500; // the socket took nothing more for this long: the connection is full

async function* body(): AsyncIterable<Uint8Array> {
  const chunk = new Uint8Array(CHUNK);
  for (let sent = 0; sent < BODY; sent += CHUNK) yield chunk;
}

let current: Reply | null = null;
const server = await listen(
  (res) => {
    const reply = new Reply(res);
    current = reply;
    void reply.stream(body(), BODY);
  },
  '127.0.0.1',
  0,
);

/** A GET whose client reads (`perRead` bytes a read) until `read` body bytes, then holds it. */
function heldClient(read: number, perRead: number): Promise<{ socket: net.Socket; got: number }> {
  return new Promise((resolve) => {
    let head = Buffer.alloc(0);
    let got = -1;
    const socket = net.connect({
      port: server.port,
      host: '127.0.0.1',
      onread: {
        buffer: Buffer.alloc(perRead),
        callback: (n, buf) => {
          if (got < 0) {
            head = Buffer.concat([head, buf.subarray(0, n)]);
            const end = head.indexOf('\r\n\r\n');
            if (end >= 0) got = head.length - end - 4;
          } else got += n;
          if (got < read) return true;
          resolve({ socket, got });
          return false; // pauses the socket: nothing more is read from the kernel
        },
      },
    });
    socket.on('connect', () => socket.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n'));
  });
}

async function stillTaken(): Promise<number> {
  let last = -1;
  while (current && current.bodyTaken !== last) {
    last = current.bodyTaken;
    await new Promise((r) => setTimeout(r, STILL_MS));
  }
  return last;
}

/** MB/s for a client reading `bytes` at full speed. */
function readingRate(bytes: number): Promise<number> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let got = 0;
    const socket = net.connect(server.port, '127.0.0.1', () => socket.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n'));
    socket.on('data', (d: Buffer) => {
      got += d.length;
      if (got >= bytes) {
        socket.destroy();
        resolve(bytes / 1e6 / ((performance.now() - t0) / 1000));
      }
    });
  });
}

const requested = process.argv.slice(2).map((k) => Number(k) * KIB);
for (const ask of requested.length ? requested : [128 * KIB, 192 * KIB, 256 * KIB]) {
  const set = limitListenSendBuffer(server.port, ask);
  console.log(`requested ${ask / KIB} KiB -> ${JSON.stringify(set)}`);
  for (const perRead of PER_READ)
    for (const read of READS) {
      const runs: string[] = [];
      for (let i = 0; i < RUNS; i++) {
        const { socket, got } = await heldClient(read, perRead);
        const taken = await stillTaken();
        runs.push(`${got} read, ${taken} taken (+${taken - got})`);
        socket.destroy();
      }
      console.log(`  ${perRead / KIB} KiB reads, >= ${read} then held: ${runs.join('; ')}`);
    }
  const rates = [];
  for (let i = 0; i < 3; i++) rates.push(await readingRate(64 * KIB * KIB));
  console.log(`  reading at full speed: ${rates.map((r) => r.toFixed(0)).join(', ')} MB/s (64 MiB each)`);
}
server.close();
