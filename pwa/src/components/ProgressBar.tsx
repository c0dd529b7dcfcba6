/** A horizontal bar for a share in percent (0 to 100), announced to screen readers as a progressbar named `label`. */
export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuenow={Math.round(percent)}
      aria-valuemin={0}
      aria-valuemax={100}
    >
      <div className="progress__bar" style={{ width: `${percent}%` }} />
    </div>
  );
}
