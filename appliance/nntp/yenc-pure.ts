/**
 * Pure TypeScript incremental yEnc decoder with the same contract as yencode's native `decodeChunk`: NNTP
 * dot-unstuffing, stop after "\r\n=y" (a control line) or "\r\n.\r\n" (end of article), and a state string to
 * carry between calls. Used only when the native addon cannot load; tests hold the two to the same output.
 */
export interface ChunkResult {
  read: number;
  written: number;
  ended: boolean;
  state: string;
}

const CR = 13;
const LF = 10;
const DOT = 46;
const EQ = 61;
const Y = 121;

// Internal states, named after the bytes last seen.
const NONE = 0; // mid-line
const S_CR = 1; // "\r"
const S_CRLF = 2; // line start
const S_CRLF_DOT = 3; // line start + "."
const S_CRLF_DOT_CR = 4; // line start + ".\r"
const S_EQ = 5; // "=" escape pending
const S_CRLF_EQ = 6; // line start + "=" ("=y" ends the data)

const TO_STRING = ['', '\r', '\r\n', '\r\n.', '\r\n.\r', '=', '\r\n='];

function fromString(state: string | null): number {
  if (state === null) return S_CRLF;
  const at = TO_STRING.indexOf(state);
  if (at >= 0) return at;
  if (state === '\r\n.=') return S_CRLF_EQ;
  return NONE;
}

export function decodeChunkPure(data: Uint8Array, output: Uint8Array, prev: string | null): ChunkResult {
  let st = fromString(prev);
  let w = 0;
  const n = data.length;
  for (let i = 0; i < n; i++) {
    const c = data[i]!;
    switch (st) {
      case S_EQ:
        output[w++] = (c - 106) & 255;
        st = NONE;
        continue;
      case S_CRLF_EQ:
        if (c === Y) return { read: i + 1, written: w, ended: true, state: '\r\n=y' };
        output[w++] = (c - 106) & 255;
        st = NONE;
        continue;
      case S_CRLF_DOT_CR:
        if (c === LF) return { read: i + 1, written: w, ended: true, state: '\r\n.\r\n' };
        st = NONE;
        break; // the stray "\r" is dropped; decode c as mid-line
      case S_CRLF_DOT:
        if (c === CR) {
          st = S_CRLF_DOT_CR;
          continue;
        }
        if (c === EQ) {
          st = S_CRLF_EQ;
          continue;
        }
        st = NONE;
        break; // the leading dot was stuffing; decode c as data
      case S_CRLF:
        if (c === DOT) {
          st = S_CRLF_DOT;
          continue;
        }
        if (c === EQ) {
          st = S_CRLF_EQ;
          continue;
        }
        break;
      case S_CR:
        if (c === LF) {
          st = S_CRLF;
          continue;
        }
        break;
    }
    // mid-line byte
    if (c === CR) st = S_CR;
    else if (c === LF) st = NONE;
    else if (c === EQ) st = S_EQ;
    else {
      output[w++] = (c - 42) & 255;
      st = NONE;
    }
  }
  return { read: n, written: w, ended: false, state: TO_STRING[st]! };
}
