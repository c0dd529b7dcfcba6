import type { FileMetadata } from '../filesApi';

/** 'x of y segments available (pct%)' and the share for the progress bar. */
export function availability(meta: Pick<FileMetadata, 'segment_count' | 'available_segments'>): {
  text: string;
  percent: number;
} {
  const total = meta.segment_count;
  const percent = total > 0 ? (meta.available_segments / total) * 100 : 0;
  return {
    text: `${meta.available_segments} of ${total} segments available (${percent.toFixed(1)}%)`,
    percent,
  };
}

export function completeness(meta: Pick<FileMetadata, 'segment_count' | 'available_segments'>): string {
  if (meta.segment_count === 0) return 'Unknown';
  return meta.available_segments === meta.segment_count ? 'Complete' : 'Incomplete';
}

export function encryptionLabel(encryption: string): string {
  return !encryption || encryption === 'none' ? 'None' : encryption.toUpperCase();
}
