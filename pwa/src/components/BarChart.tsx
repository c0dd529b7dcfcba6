export interface Bar {
  label: string;
  value: number;
  color: string;
}

/** Spec §2/§9: dashboard charts are 300 px high. Plain SVG: a handful of bars needs no chart library. */
export const CHART_HEIGHT = 300;

export function BarChart({ bars, title }: { bars: Bar[]; title: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const plot = CHART_HEIGHT - 56;
  const width = 100 / Math.max(1, bars.length);
  return (
    <figure className="bar-chart" style={{ height: CHART_HEIGHT }} aria-label={title}>
      <svg viewBox={`0 0 100 ${CHART_HEIGHT}`} preserveAspectRatio="none" role="img" aria-hidden="true">
        {[0.25, 0.5, 0.75, 1].map((f) => (
          <line key={f} x1="0" x2="100" y1={16 + plot * (1 - f)} y2={16 + plot * (1 - f)} className="bar-chart__grid" />
        ))}
        {bars.map((b, i) => {
          const h = (b.value / max) * plot;
          return (
            <rect
              key={b.label}
              x={i * width + width * 0.2}
              y={16 + plot - h}
              width={width * 0.6}
              height={Math.max(h, b.value > 0 ? 1 : 0)}
              rx="1"
              fill={b.color}
            />
          );
        })}
      </svg>
      <figcaption className="bar-chart__labels">
        {bars.map((b) => (
          <span key={b.label} style={{ width: `${width}%` }}>
            <strong>{b.value}</strong>
            {b.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
