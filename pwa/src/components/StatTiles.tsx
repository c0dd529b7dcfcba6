import type { Tone } from './Badge';

export interface StatTile {
  label: string;
  value: number | undefined;
  tone: Tone;
}

/** A row of figure tiles (Queue and Health screens); '–' until the figure is known. */
export function StatTiles({ tiles, label }: { tiles: StatTile[]; label: string }) {
  return (
    <dl className="stat-tiles" aria-label={label}>
      {tiles.map((t) => (
        <div key={t.label} className={`stat-tile stat-tile--${t.tone}`}>
          <dt>{t.label}</dt>
          <dd>{t.value ?? '–'}</dd>
        </div>
      ))}
    </dl>
  );
}
