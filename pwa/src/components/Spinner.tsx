export function Spinner({ label = 'Loading', size = 'md' }: { label?: string; size?: 'sm' | 'md' | 'lg' }) {
  return <span className={`spinner spinner--${size}`} role="status" aria-label={label} />;
}

export function LoadingBlock({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="loading-block">
      <Spinner label={label} size="lg" />
      <p className="muted">{label}</p>
    </div>
  );
}
