import { Icon, type IconName } from './Icon';

/** The placeholder of docs/console-contract.md §2 for screens and sections that later work fills in. */
export function ComingSoon({
  title,
  description,
  icon = 'clock',
}: {
  title: string;
  description?: string;
  icon?: IconName;
}) {
  return (
    <section className="coming-soon" aria-label={title}>
      <div className="coming-soon__icon">
        <Icon name={icon} size={28} />
      </div>
      <h2>{title}</h2>
      <p className="coming-soon__label">Coming Soon</p>
      {description && <p className="muted">{description}</p>}
    </section>
  );
}
