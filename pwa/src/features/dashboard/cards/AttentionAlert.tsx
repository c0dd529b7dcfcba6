import { Icon } from '../../../components/Icon';

export function AttentionAlert({ failed, corrupted }: { failed: number; corrupted: number }) {
  if (failed <= 0 && corrupted <= 0) return null;
  return (
    <div className="alert alert--warning" role="status">
      <Icon name="warning" />
      <div>
        <p className="alert__title">Attention Required</p>
        {failed > 0 && <p>{failed} failed queue items.</p>}
        {corrupted > 0 && <p>{corrupted} corrupted files detected.</p>}
      </div>
    </div>
  );
}
