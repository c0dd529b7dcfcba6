import { useState } from 'react';
import { Badge } from '../../../components/Badge';
import { formatBytes } from '../../../lib/format';
import type { FileMetadata } from '../filesApi';

/** Rows rendered per step: a 50 GB release has tens of thousands of segments. */
const PAGE = 200;

export function SegmentsTab({ meta }: { meta: FileMetadata }) {
  const [shown, setShown] = useState(PAGE);
  const missing = meta.segments.filter((s) => !s.available).length;
  return (
    <div className="file-info">
      <dl className="file-facts file-facts--inline">
        <dt>Total segments</dt>
        <dd>{meta.segment_count}</dd>
        <dt>Available</dt>
        <dd>{meta.available_segments}</dd>
        <dt>Missing</dt>
        <dd>{missing}</dd>
      </dl>
      {meta.segments.length === 0 ? (
        <p className="muted">No Segment Data</p>
      ) : (
        <div className="files-table-scroll">
          <table className="files-table segments-table">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Segment ID</th>
                <th scope="col">Size</th>
                <th scope="col">Offset Range</th>
              </tr>
            </thead>
            <tbody>
              {meta.segments.slice(0, shown).map((s) => (
                <tr key={`${s.message_id}-${s.start_offset}`}>
                  <td>{s.available ? <Badge tone="success">available</Badge> : <Badge tone="error">missing</Badge>}</td>
                  <td className="file-mono segments-table__id">{s.message_id}</td>
                  <td>{formatBytes(s.segment_size)}</td>
                  <td className="file-mono">
                    {s.start_offset.toLocaleString()} – {s.end_offset.toLocaleString()}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {shown < meta.segments.length && (
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setShown((n) => n + PAGE)}>
              Show more ({meta.segments.length - shown} left)
            </button>
          )}
        </div>
      )}
    </div>
  );
}
