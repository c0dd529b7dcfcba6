// Draws Spool's app icons as real PNG files (no image library): a spool of thread, two flanges and wound rows,
// on the console's dark background. Run: node pwa/tools/make-icons.mjs (output committed in pwa/public/icons).
import { deflateSync } from 'node:zlib';
import { writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const outDir = fileURLToPath(new URL('../public/icons/', import.meta.url));
const BG = [11, 15, 23];
const ACCENT = [96, 165, 250];
const THREAD = [147, 197, 253];
const FLANGE = [226, 232, 240];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Signed distance to a rounded rectangle centred at (cx, cy). */
function roundedRect(x, y, cx, cy, hw, hh, r) {
  const qx = Math.abs(x - cx) - hw + r;
  const qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** Colour of one point in unit space [0,1]²; `safe` shrinks the art into the maskable safe zone. */
function shade(u, v, { rounded, safe }) {
  const outside = rounded ? roundedRect(u, v, 0.5, 0.5, 0.5, 0.5, 0.22) > 0 : false;
  if (outside) return null;
  const s = safe ? 0.62 : 0.8;
  const x = (u - 0.5) / s + 0.5;
  const y = (v - 0.5) / s + 0.5;
  const flangeTop = roundedRect(x, y, 0.5, 0.2, 0.34, 0.055, 0.05) <= 0;
  const flangeBottom = roundedRect(x, y, 0.5, 0.8, 0.34, 0.055, 0.05) <= 0;
  if (flangeTop || flangeBottom) return FLANGE;
  if (Math.abs(x - 0.5) <= 0.24 && y > 0.25 && y < 0.75) {
    const row = Math.floor((y - 0.25) / 0.0625);
    const inRow = ((y - 0.25) % 0.0625) / 0.0625;
    if (inRow > 0.18) return row % 2 === 0 ? ACCENT : THREAD;
    return BG;
  }
  // A loose thread leaving the spool towards the lower right.
  const tx = 0.74;
  if (x > tx && x < 0.9 && Math.abs(y - (0.5 + (x - tx) * 1.6)) < 0.022) return THREAD;
  return BG;
}

function draw(size, opts) {
  const rgba = Buffer.alloc(size * size * 4);
  const samples = 4; // 4x4 supersampling for smooth edges
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const c = shade((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size, opts);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 255;
        }
      }
      const n = samples * samples;
      const i = (py * size + px) * 4;
      const cover = a / 255;
      rgba[i] = cover ? Math.round(r / cover) : 0;
      rgba[i + 1] = cover ? Math.round(g / cover) : 0;
      rgba[i + 2] = cover ? Math.round(b / cover) : 0;
      rgba[i + 3] = Math.round(a / n);
    }
  }
  return encodePng(size, rgba);
}

mkdirSync(outDir, { recursive: true });
const targets = [
  ['icon-192.png', 192, { rounded: true, safe: false }],
  ['icon-512.png', 512, { rounded: true, safe: false }],
  ['maskable-512.png', 512, { rounded: false, safe: true }],
  ['apple-touch-icon.png', 180, { rounded: false, safe: false }],
];
for (const [name, size, opts] of targets) {
  writeFileSync(outDir + name, draw(size, opts));
  console.log(`wrote ${name} (${size}x${size})`);
}
