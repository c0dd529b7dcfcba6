import { useEffect, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSignals } from '@preact/signals-react/runtime';
import { auth, canAdminister } from '../../auth/authStore';
import { describeError } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { QueryList } from '../../components/QueryList';
import { SelectableTable } from '../../components/SelectableTable';
import { toast } from '../../components/toast';
import { useConfirm } from '../../components/useConfirm';
import { formatBytes } from '../../lib/format';
import { NARROW, useMediaQuery } from '../../lib/hooks';
import { useLive, wantLiveTopic } from '../../lib/live';
import { FETCH_CLASS_LABELS, servedByNodes, todayOf } from './rules';
import { endedColumns, openColumns } from './streamColumns';
import { FETCH_CLASSES, READER_CLASSES, streamsApi, type StreamInfo } from './streamsApi';
import { streamsKeys } from './streamsKeys';
import './streams.css';

/** How often the screen asks again while the live channel is down (docs/console.md, Streams). */
const STREAMS_POLL_MS = 2000;
/**
 * While it is up, stream events refetch the lists; the open list is also asked again at this pace, since a reader
 * that waits or pauses sends no event while its rate falls (and it may turn starved).
 */
const STREAMS_LIVE_REFRESH_MS = 5000;
const noSelection = {};
const ignore = () => undefined;

/** Streams (docs/console.md, Streams): every open reader of WebDAV, FUSE and rclone, the ended ones, bytes per class. */
export function StreamsPage() {
  useSignals();
  const isAdmin = canAdminister(auth.value);
  const queryClient = useQueryClient();
  const narrow = useMediaQuery(NARROW);
  const max = narrow ? 40 : 50;
  const isLive = useLive();
  // each open stream's progress (at most once a second each) while this screen is open
  useEffect(() => wantLiveTopic('stream.progress'), []);
  const list = useQuery({
    queryKey: streamsKeys.open,
    queryFn: ({ signal }) => streamsApi.list(signal),
    refetchInterval: isLive ? STREAMS_LIVE_REFRESH_MS : STREAMS_POLL_MS,
  });
  const history = useQuery({
    queryKey: streamsKeys.history,
    queryFn: ({ signal }) => streamsApi.history(signal),
    refetchInterval: isLive ? false : STREAMS_POLL_MS,
  });
  const confirm = useConfirm(() => void queryClient.invalidateQueries({ queryKey: streamsKeys.all }));
  const askEnd = useMemo(
    () =>
      isAdmin
        ? (s: StreamInfo) =>
            confirm.ask({
              title: 'End Stream',
              message: `End the stream of ${s.path}? The reader gets an error and may open the file again.`,
              confirmLabel: 'End Stream',
              run: async () => {
                try {
                  await streamsApi.end(s.id);
                  toast.success('Stream ended');
                } catch (err) {
                  toast.error(describeError(err, 'Failed to end the stream'));
                }
              },
            })
        : undefined,
    // confirm.ask is a state setter: stable
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [isAdmin],
  );
  // several nodes on one database: a Node column once more than one serves the streams listed
  const showNode = servedByNodes(list.data?.streams);
  const openCols = useMemo(() => openColumns({ max, onEnd: askEnd, showNode }), [max, askEnd, showNode]);
  const endedCols = useMemo(() => endedColumns(max), [max]);
  const today = todayOf(list.data?.bytes_by_class);
  const fetchedToday = list.data?.fetched_by_class[0];

  return (
    <section className="list-page" aria-label="Streams">
      <div className="page-header">
        <div className="page-header__text">
          <h2>Streams</h2>
          <p className="muted">Every open read of a file over WebDAV, FUSE and rclone, and the ones that ended.</p>
        </div>
      </div>

      <dl className="stat-tiles" aria-label="Bytes served today by reader class">
        {READER_CLASSES.map((c) => (
          <div key={c} className="stat-tile stat-tile--neutral">
            <dt>{c === 'player' ? 'Players today' : 'Scanners today'}</dt>
            <dd>{today ? formatBytes(today.bytes[c]) : '–'}</dd>
          </div>
        ))}
      </dl>

      <dl className="stat-tiles" aria-label="Bytes fetched from Usenet today by class">
        {FETCH_CLASSES.map((c) => (
          <div key={c} className="stat-tile stat-tile--neutral">
            <dt>{FETCH_CLASS_LABELS[c]} fetched today</dt>
            <dd>{fetchedToday ? formatBytes(fetchedToday.bytes[c]) : '–'}</dd>
          </div>
        ))}
      </dl>

      <div className="card list-card">
        <h3 className="streams-heading">Open streams</h3>
        <QueryList
          query={list}
          rowsOf={(d) => d.streams}
          loadingText="Loading streams..."
          failText="Failed to load streams"
          emptyText="Nothing is being read"
        >
          {(streams) => (
            <SelectableTable
              items={streams}
              columns={openCols}
              rowId={(s) => s.id}
              rowStatus={(s) => s.reader_class}
              selection={noSelection}
              onSelectionChange={ignore}
              className="streams-table streams-table--open"
            />
          )}
        </QueryList>
      </div>

      <div className="card list-card">
        <h3 className="streams-heading">Recently ended</h3>
        <QueryList
          query={history}
          rowsOf={(d) => d.streams}
          loadingText="Loading history..."
          failText="Failed to load ended streams"
          emptyText="No stream has ended in the last 24 hours"
        >
          {(streams) => (
            <SelectableTable
              items={streams}
              columns={endedCols}
              rowId={(s) => s.id}
              rowStatus={(s) => s.reason}
              selection={noSelection}
              onSelectionChange={ignore}
              className="streams-table streams-table--ended"
            />
          )}
        </QueryList>
      </div>

      <ConfirmDialog {...confirm.dialog} tone="danger" />
    </section>
  );
}
