import type { FileLayout, LayoutSegment } from '../../../appliance/layout/index.js';
import { mulberry32 } from '../seeded-random.js';

/**
 * Layouts shaped like real posted files, for the packed-layout tests and the store-size figure (bench/lib/
 * store-size.ts): articles of one part size (the last shorter), `number=` 1..n, `bytes=` the yEnc-encoded size
 * (about 2% escapes, varying by a few hundred bytes from article to article as real escapes do), one post, and
 * message-ids in the styles posting tools write.
 */
export type IdStyle =
  /** `part12of3456.AbCdEf1234@powerpost.local`: a part counter and a random part per file (Newsmangler-like) */
  | 'sequential'
  /** `<40 random hex>@ngPost.com` (ngPost) */
  | 'random-hex'
  /** `1700000000.123456.1@poster.local`: time, microseconds, counter */
  | 'timestamp'
  /** `part12of3456.<10 random letters and digits>@example.com`: a random part per article */
  | 'random-part'
  /** 22 random base64url characters and a host, as some posters write a UUID */
  | 'base64';

export const ID_STYLES: readonly IdStyle[] = ['sequential', 'random-hex', 'timestamp', 'random-part', 'base64'];

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const B64 = `${ALNUM}-_`;

export function realisticLayout(opts: {
  articles: number;
  style: IdStyle;
  seed?: number;
  partSize?: number;
}): FileLayout {
  const random = mulberry32(opts.seed ?? 1);
  const pick = (alphabet: string, n: number) =>
    Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  const n = opts.articles;
  const partSize = opts.partSize ?? 716_800;
  const fileRandom = pick(ALNUM, 10);
  let clock = 1_700_000_000 + Math.floor(random() * 1e6);
  const idOf = (i: number): string => {
    switch (opts.style) {
      case 'sequential':
        return `part${i + 1}of${n}.${fileRandom}@powerpost.local`;
      case 'random-hex':
        return `${pick('0123456789abcdef', 40)}@ngPost.com`;
      case 'timestamp':
        if (random() < 0.05) clock++;
        return `${clock}.${String(Math.floor(random() * 1e6)).padStart(6, '0')}.${i + 1}@poster.local`;
      case 'random-part':
        return `part${i + 1}of${n}.${pick(ALNUM, 10)}@example.com`;
      case 'base64':
        return `${pick(B64, 22)}@uuid.example.org`;
    }
  };
  const segments: LayoutSegment[] = [];
  const lastSize = partSize - Math.floor(random() * partSize * 0.9);
  for (let i = 0; i < n; i++) {
    const size = i === n - 1 ? lastSize : partSize;
    // yEnc escapes about 1.6% of bytes (binomial: a few hundred either way), plus lines and headers
    const escapes = Math.round(size * 0.016 + (random() + random() + random() - 1.5) * 2 * Math.sqrt(size * 0.016));
    segments.push({
      messageId: idOf(i),
      start: i * partSize,
      end: i * partSize + size,
      number: i + 1,
      bytes: size + escapes + Math.ceil(size / 128) * 2 + 120,
      post: 0,
    });
  }
  const groups = ['alt.binaries.test', 'alt.binaries.misc'];
  return {
    size: segments.at(-1)!.end,
    segments,
    groups,
    posts: [
      { poster: 'poster <poster@example.com>', date: 1_700_000_000, subject: `"file.mkv" yEnc (1/${n})`, groups },
    ],
  };
}
