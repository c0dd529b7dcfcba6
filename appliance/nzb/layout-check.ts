import type { NzbSegments } from './segments.js';

/**
 * yEnc never shrinks data: escapes and line ends add ~1-3%, header and trailer lines a few hundred bytes, and
 * posters' `bytes=` may include the article headers (~1 KB). So a decoded size is plausible for a segment when
 * its encoded size lies between these bounds.
 */
const MIN_RATIO = 0.995;
const MAX_RATIO = 1.1;
const MAX_FIXED_OVERHEAD = 8192;
const MAX_SUSPECTS = 16;

export interface EncodedSizeCheck {
  /** Segment indexes whose inferred size disagrees with the NZB: fetch their headers. */
  suspects: number[];
  reason: string;
  warnings: string[];
}

export function isPlausible(decoded: number, encoded: number): boolean {
  return encoded >= decoded * MIN_RATIO && encoded <= decoded * MAX_RATIO + MAX_FIXED_OVERHEAD;
}

/**
 * Compares inferred decoded sizes with the encoded sizes the NZB claims. Sizes taken from a segment's own headers
 * are authoritative and not checked; segments without `bytes=` cannot be checked.
 */
export function checkEncodedSizes(
  sizes: Float64Array,
  segments: NzbSegments,
  inferred: (index: number) => boolean,
): EncodedSizeCheck {
  const warnings: string[] = [];
  let unchecked = 0;
  for (let i = 0; i < segments.length; i++) if (segments.bytes(i) === 0) unchecked++;
  if (unchecked > 0)
    warnings.push(`${unchecked} segments have no bytes= in the NZB; their sizes rest on yEnc headers alone`);
  // calibrate on the segments whose headers we read: if the NZB's count is wrong for them, it is a poster's
  // habit (decoded sizes, zeros, junk) and says nothing about the others
  for (let i = 0; i < sizes.length; i++) {
    const encoded = segments.bytes(i);
    if (!inferred(i) && encoded > 0 && !isPlausible(sizes[i]!, encoded)) {
      warnings.push(
        `bytes= of segment ${i + 1} (${encoded}) disagrees with its yEnc header (${sizes[i]}); NZB sizes ignored`,
      );
      return { suspects: [], reason: '', warnings };
    }
  }
  const suspects: number[] = [];
  let wrong = 0;
  for (let i = 0; i < sizes.length; i++) {
    const encoded = segments.bytes(i);
    if (encoded === 0 || !inferred(i) || isPlausible(sizes[i]!, encoded)) continue;
    wrong++;
    if (suspects.length < MAX_SUSPECTS) suspects.push(i);
  }
  const reason = wrong > 0 ? `${wrong} segments' NZB sizes do not match the part size from the yEnc headers` : '';
  return { suspects, reason, warnings };
}
