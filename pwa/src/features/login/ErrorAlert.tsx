import type { ReactNode } from 'react';
import { Icon } from '../../components/Icon';

/** An error box of the login page: a title and what went wrong, announced at once (role="alert"). */
export function ErrorAlert({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="alert alert--error" role="alert">
      <Icon name="alert" />
      <div>
        <p className="alert__title">{title}</p>
        {children}
      </div>
    </div>
  );
}
