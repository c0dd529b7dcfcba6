import type { FormEvent, ReactNode } from 'react';

interface Props {
  title: string;
  description: string;
  children: ReactNode;
  /** Omit for sections without a form of their own (System). */
  onSave?: () => void;
  onDiscard?: () => void;
  dirty?: boolean;
  valid?: boolean;
  saving?: boolean;
  readOnly?: boolean;
  saveLabel?: string;
  /** The heading's id; a second form on the same screen (System's logging) needs its own. */
  titleId?: string;
}

/** Frame of one configuration section: heading, fields, and Save enabled only when changed and valid. */
export function SectionLayout({
  title,
  description,
  children,
  onSave,
  onDiscard,
  dirty = false,
  valid = true,
  saving = false,
  readOnly = false,
  saveLabel = 'Save Changes',
  titleId = 'config-section-title',
}: Props) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (onSave && dirty && valid && !saving) onSave();
  };
  return (
    <form className="card config-section" onSubmit={submit} aria-labelledby={titleId} noValidate>
      <header className="config-section__header">
        <h2 id={titleId}>{title}</h2>
        <p>{description}</p>
      </header>
      <fieldset className="fieldset" disabled={readOnly || saving}>
        {children}
      </fieldset>
      {onSave && !readOnly && (
        <div className="form-actions">
          {onDiscard && (
            <button type="button" className="btn btn--ghost" onClick={onDiscard} disabled={!dirty || saving}>
              Discard
            </button>
          )}
          <button type="submit" className="btn btn--primary" disabled={!dirty || !valid || saving}>
            {saving ? 'Saving...' : saveLabel}
          </button>
        </div>
      )}
    </form>
  );
}

/** Props every section component receives. */
export interface SectionProps {
  readOnly?: boolean;
}
