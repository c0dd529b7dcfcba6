import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ArrType } from '../../../../api/types';
import { modalComplete, newInstance, TYPE_LABEL, type ArrInstanceForm } from './arrsForm';

interface Props {
  onAdd: (instance: ArrInstanceForm) => void;
  onClose: () => void;
}

/** Add-instance dialog: Radarr and enabled by default; Add needs a name, a URL and an API key. */
export function AddInstanceModal({ onAdd, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const fid = useId();
  const [draft, setDraft] = useState<ArrInstanceForm>(newInstance);
  const set = <K extends keyof ArrInstanceForm>(key: K, value: ArrInstanceForm[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!modalComplete(draft)) return;
    onAdd({ ...draft, name: draft.name.trim(), url: draft.url.trim(), api_key: draft.api_key.trim() });
  };

  return (
    <dialog
      ref={ref}
      className="dialog arr-modal"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <form className="dialog__content" onSubmit={submit} noValidate>
        <h2 id={titleId} className="dialog__title">
          Add Instance
        </h2>
        <div className="field-grid field-grid--2">
          <div className="field">
            <label htmlFor={`${fid}-type`}>Type</label>
            <select id={`${fid}-type`} value={draft.type} onChange={(e) => set('type', e.target.value as ArrType)}>
              {(['radarr', 'sonarr'] as const).map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABEL[t]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${fid}-name`}>Name</label>
            <input
              id={`${fid}-name`}
              value={draft.name}
              onChange={(e) => set('name', e.target.value)}
              autoComplete="off"
            />
          </div>
          <div className="field">
            <label htmlFor={`${fid}-url`}>URL</label>
            <input
              id={`${fid}-url`}
              value={draft.url}
              onChange={(e) => set('url', e.target.value)}
              placeholder={draft.type === 'radarr' ? 'http://radarr:7878' : 'http://sonarr:8989'}
              autoComplete="off"
            />
          </div>
          <div className="field">
            <label htmlFor={`${fid}-key`}>API key</label>
            <input
              id={`${fid}-key`}
              type="password"
              value={draft.api_key}
              onChange={(e) => set('api_key', e.target.value)}
              autoComplete="new-password"
            />
          </div>
          <div className="field">
            <label htmlFor={`${fid}-root`}>Root folder</label>
            <input
              id={`${fid}-root`}
              value={draft.root_folder}
              onChange={(e) => set('root_folder', e.target.value)}
              placeholder="Optional"
              autoComplete="off"
            />
          </div>
        </div>
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set('enabled', e.target.checked)} /> Enabled
        </label>
        <div className="dialog__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={!modalComplete(draft)}>
            Add Instance
          </button>
        </div>
      </form>
    </dialog>
  );
}
