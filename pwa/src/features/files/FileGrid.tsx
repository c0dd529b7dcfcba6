import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { FileEntry } from '../../lib/webdav';
import { FileCard } from './FileCard';
import type { FileActions } from './useFileActions';
import { ROW_HEIGHT, VIEWPORT_HEIGHT, VIRTUAL_THRESHOLD, columnsFor, visibleRows } from './virtualGrid';

interface Props {
  entries: FileEntry[];
  onOpenFolder: (entry: FileEntry) => void;
  actions: FileActions;
}

function useColumns(): number {
  const [columns, setColumns] = useState(() => columnsFor(window.innerWidth));
  useEffect(() => {
    const onResize = () => setColumns(columnsFor(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return columns;
}

/** A plain grid under 100 items; from 100 a virtualised one that renders only the rows in view (docs/console-contract.md §2, §9). */
export function FileGrid({ entries, onOpenFolder, actions }: Props) {
  const columns = useColumns();
  const card = (e: FileEntry) => <FileCard key={e.filename} entry={e} onOpenFolder={onOpenFolder} actions={actions} />;
  if (entries.length < VIRTUAL_THRESHOLD) {
    return (
      <div
        className="file-grid"
        style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
        data-testid="file-grid"
      >
        {entries.map(card)}
      </div>
    );
  }
  return <VirtualGrid entries={entries} columns={columns} card={card} />;
}

function VirtualGrid({
  entries,
  columns,
  card,
}: {
  entries: FileEntry[];
  columns: number;
  card: (e: FileEntry) => ReactElement;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const ref = useRef<HTMLDivElement>(null);
  // A new listing (other folder, search) starts at the top.
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = 0;
    setScrollTop(0);
  }, [entries]);
  const { start, end, totalRows } = visibleRows(entries.length, columns, scrollTop);
  const rows = [];
  for (let r = start; r < end; r++) {
    rows.push(
      <div
        key={r}
        className="file-grid file-grid__row"
        style={{ top: r * ROW_HEIGHT, height: ROW_HEIGHT, gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
      >
        {entries.slice(r * columns, (r + 1) * columns).map(card)}
      </div>,
    );
  }
  return (
    <div
      ref={ref}
      className="file-grid--virtual"
      style={{ height: VIEWPORT_HEIGHT }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      data-testid="virtual-grid"
      data-total-items={entries.length}
    >
      <div style={{ height: totalRows * ROW_HEIGHT, position: 'relative' }}>{rows}</div>
    </div>
  );
}
