import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisLabels } from './barAxis';

export interface Bar {
  label: string;
  /** CSS colour, or `var(--token)` resolved against the chart's element (canvas cannot read CSS variables). */
  color: string;
  value: number;
}

/** docs/console-contract.md §2/§9: dashboard charts are 300 px high. */
export const CHART_HEIGHT = 300;

function resolveColor(el: Element, color: string): string {
  const m = /^var\((--[\w-]+)\)$/.exec(color.trim());
  if (!m) return color;
  return (
    getComputedStyle(el)
      .getPropertyValue(m[1] as string)
      .trim() || '#888'
  );
}

function chartOptions(el: HTMLElement, bars: Bar[], title: string, width: number): uPlot.Options {
  const colors = bars.map((b) => resolveColor(el, b.color));
  const muted = getComputedStyle(el).getPropertyValue('--text-muted').trim() || '#888';
  const grid = getComputedStyle(el).getPropertyValue('--border').trim() || '#333';
  const labels = bars.map((b) => b.label);
  return {
    width,
    height: CHART_HEIGHT,
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: false, range: [-0.5, bars.length - 0.5] },
      y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] },
    },
    axes: [
      {
        stroke: muted,
        grid: { show: false },
        ticks: { show: false },
        splits: () => labels.map((_, i) => i),
        // Blank on narrow charts (the caption under the chart names each bar anyway).
        values: (u, splits) => {
          const shown = axisLabels(labels, u.width);
          return splits.map((i) => shown[i] ?? '');
        },
      },
      {
        stroke: muted,
        grid: { stroke: grid, width: 1 },
        ticks: { show: false },
        // Counts are whole numbers; hide the fractional ticks uPlot picks for small ranges.
        values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : '')),
      },
    ],
    series: [
      {},
      {
        label: title,
        // uPlot applies per-bar fills only to unstroked bars.
        width: 0,
        fill: colors[0],
        points: { show: false },
        paths: uPlot.paths.bars?.({
          size: [0.6, 96],
          align: 0,
          // One colour per bar (facet unit 3 = colour).
          disp: { fill: { unit: 3 as uPlot.Series.BarsPathBuilderFacetUnit, values: () => colors } },
        }),
      },
    ],
  };
}

/**
 * A uPlot bar chart (docs/console-contract.md §2: 300 px high, one colour per bar). The values are also written out under the chart,
 * so they can be read without the canvas (screen readers, tests).
 */
export function BarChart({ bars, title }: { bars: Bar[]; title: string }) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  const barsRef = useRef(bars);
  barsRef.current = bars;
  const shapeKey = bars.map((b) => `${b.label}:${b.color}`).join('|');
  const valuesKey = bars.map((b) => b.value).join(',');

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const current = barsRef.current;
    const data: uPlot.AlignedData = [current.map((_, i) => i), current.map((b) => b.value)];
    const chart = new uPlot(chartOptions(el, current, title, Math.max(120, el.clientWidth)), data, el);
    plot.current = chart;
    const observer = new ResizeObserver(() => {
      if (el.clientWidth > 0) chart.setSize({ width: el.clientWidth, height: CHART_HEIGHT });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.destroy();
      plot.current = undefined;
    };
  }, [shapeKey, title]);

  useEffect(() => {
    const current = barsRef.current;
    plot.current?.setData([current.map((_, i) => i), current.map((b) => b.value)]);
  }, [valuesKey]);

  return (
    <figure className="bar-chart" aria-label={title}>
      <div
        ref={host}
        className="bar-chart__plot"
        style={{ height: CHART_HEIGHT, width: '100%' }}
        role="img"
        aria-label={title}
      />
      <figcaption className="bar-chart__labels">
        {bars.map((b) => (
          <span key={b.label} style={{ width: `${100 / Math.max(1, bars.length)}%` }}>
            <strong>{b.value}</strong>
            {b.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
