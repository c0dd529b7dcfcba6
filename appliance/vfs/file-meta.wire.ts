/**
 * docs/console-contract.md §3 File metadata, GET /api/files/info (built by file-meta.ts). A wire file: types only
 * (docs/contributing.md "Wire types").
 */

/** One article of the file: decoded bytes [start_offset, end_offset] (inclusive); available unless known missing. */
export interface FileSegmentJson {
  message_id: string;
  segment_size: number;
  start_offset: number;
  end_offset: number;
  available: boolean;
}

export interface FileMetaJson {
  file_size: number;
  segment_count: number;
  available_segments: number;
  status: 'healthy' | 'partial' | 'corrupted' | 'other';
  encryption: string;
  password_protected: boolean;
  created_at: string;
  modified_at: string;
  source_nzb_path: string | null;
  segments: FileSegmentJson[];
}
