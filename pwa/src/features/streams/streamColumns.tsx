import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { Badge } from '../../components/Badge';
import type { SelectableFeatures } from '../../components/SelectableTable';
import { formatBytes, formatRelativeTime, shortenMiddle } from '../../lib/format';
import {
  clientLabel,
  endsHere,
  formatBuffered,
  formatRateVsBitrate,
  formatServing,
  formatStalls,
  formatTtfb,
  FRONT_LABELS,
} from './rules';
import type { EndedStreamInfo, StreamInfo } from './streamsApi';

const open = createColumnHelper<SelectableFeatures, StreamInfo>();
const ended = createColumnHelper<SelectableFeatures, EndedStreamInfo>();

function FileCell({ s, max }: { s: StreamInfo; max: number }) {
  return (
    <span className="streams-path" title={s.path}>
      {shortenMiddle(s.path, max)}
    </span>
  );
}

function ClassCell({ s }: { s: StreamInfo }) {
  return (
    <Badge tone={s.reader_class === 'player' ? 'info' : 'neutral'}>
      {s.reader_class}
      {s.class_settled ? '' : '?'}
    </Badge>
  );
}

/** Delivered rate against the media bitrate, marked when the player is starved. */
function RateCell({ s }: { s: StreamInfo }) {
  return (
    <span className="streams-rate">
      {formatRateVsBitrate(s)}
      {s.starved && (
        <span title="Getting less than the media bitrate while it waits for Usenet">
          <Badge tone="error">starved</Badge>
        </span>
      )}
    </span>
  );
}

/** The columns both tables share: file, front, client, class, served, rate, time to first byte, stalls. */
function common<T extends StreamInfo>(h: typeof open | typeof ended, max: number) {
  const c = h as unknown as ReturnType<typeof createColumnHelper<SelectableFeatures, T>>;
  return [
    c.display({ id: 'path', header: 'File', cell: ({ row }) => <FileCell s={row.original} max={max} /> }),
    c.display({ id: 'front', header: 'Front', cell: ({ row }) => FRONT_LABELS[row.original.front] }),
    c.display({
      id: 'client',
      header: 'Client',
      cell: ({ row }) => <span className="streams-client">{clientLabel(row.original)}</span>,
    }),
    c.display({ id: 'class', header: 'Class', cell: ({ row }) => <ClassCell s={row.original} /> }),
    c.display({ id: 'served', header: 'Served', cell: ({ row }) => formatBytes(row.original.bytes_served) }),
    c.display({ id: 'rate', header: 'Rate / bitrate', cell: ({ row }) => <RateCell s={row.original} /> }),
    c.display({ id: 'ttfb', header: 'First byte', cell: ({ row }) => formatTtfb(row.original.ttfb_ms) }),
    c.display({ id: 'stalls', header: 'Stalls', cell: ({ row }) => formatStalls(row.original) }),
  ] as ColumnDef<SelectableFeatures, T>[];
}

export function openColumns(opts: {
  max: number;
  /** Admins only: the End button (asks for confirmation), on the streams of the node the console talks to. */
  onEnd?: (s: StreamInfo) => void;
  /** Several nodes serve the streams listed: which one serves each. */
  showNode?: boolean;
}): ColumnDef<SelectableFeatures, StreamInfo>[] {
  const cols = common<StreamInfo>(open, opts.max);
  if (opts.showNode)
    cols.splice(1, 0, open.display({ id: 'node', header: 'Node', cell: ({ row }) => row.original.node ?? '' }));
  cols.push(
    open.display({
      id: 'buffered',
      header: 'Buffered',
      cell: ({ row }) => formatBuffered(row.original.buffered_bytes),
    }) as ColumnDef<SelectableFeatures, StreamInfo>,
    open.display({
      id: 'serving',
      header: () => <span title="Commands on the wire now · the providers that served it">Connections · provider</span>,
      cell: ({ row }) => <span className="streams-client">{formatServing(row.original)}</span>,
    }) as ColumnDef<SelectableFeatures, StreamInfo>,
    open.display({
      id: 'opened',
      header: 'Opened',
      cell: ({ row }) => formatRelativeTime(row.original.opened_at),
    }) as ColumnDef<SelectableFeatures, StreamInfo>,
  );
  const onEnd = opts.onEnd;
  if (onEnd)
    cols.push(
      open.display({
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        // another node's stream (`<node>:<id>`) is ended on that node
        cell: ({ row }) =>
          endsHere(row.original) && (
            <button
              type="button"
              className="btn btn--danger btn--sm"
              onClick={() => onEnd(row.original)}
              aria-label={`End stream of ${row.original.path}`}
            >
              End
            </button>
          ),
      }) as ColumnDef<SelectableFeatures, StreamInfo>,
    );
  return cols;
}

export function endedColumns(max: number): ColumnDef<SelectableFeatures, EndedStreamInfo>[] {
  const cols = common<EndedStreamInfo>(ended, max);
  cols.push(
    ended.display({
      id: 'closed',
      header: 'Ended',
      cell: ({ row }) => formatRelativeTime(row.original.closed_at),
    }) as ColumnDef<SelectableFeatures, EndedStreamInfo>,
    ended.display({
      id: 'reason',
      header: 'How',
      cell: ({ row }) => <span className="streams-reason">{row.original.reason}</span>,
    }) as ColumnDef<SelectableFeatures, EndedStreamInfo>,
  );
  return cols;
}
