import { useState } from 'react';
import type { SabnzbdCategory, SpoolConfig } from '../../../api/types';
import { NumberInput, TextField, ToggleField } from '../fields';
import { NUMBER_RULES } from '../numbers';
import { addCategory, MASKED_KEY, sabnzbdErrors, sabnzbdPayload } from '../sabnzbdRules';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';

type Priority = SabnzbdCategory['priority'];

const PRIORITIES: { value: Priority; label: string }[] = [
  { value: -1, label: 'Low' },
  { value: 0, label: 'Normal' },
  { value: 1, label: 'High' },
];

/** The download-client API Radarr and Sonarr send NZBs to (docs/sabnzbd.md), with its categories. */
export function SabnzbdSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const saved = config.sabnzbd;
  const { form, set, dirty, reset } = useSectionForm({
    enabled: saved.enabled,
    complete_dir: saved.complete_dir,
    fallback_host: saved.fallback_host,
    fallback_api_key: saved.fallback_api_key_set ? MASKED_KEY : '',
    categories: saved.categories,
  });
  const [newName, setNewName] = useState('');
  const save = useSaveConfig('SABnzbd settings saved');
  const errors = sabnzbdErrors(form);
  const valid = !errors.complete_dir && !errors.categories;
  const setCategory = (i: number, change: Partial<SabnzbdCategory>) =>
    set(
      'categories',
      form.categories.map((c, j) => (j === i ? { ...c, ...change } : c)),
    );

  return (
    <SectionLayout
      title="SABnzbd API"
      description="The download-client API Radarr and Sonarr send NZBs to, at /sabnzbd/api (URL Base /sabnzbd)."
      onSave={() => save.mutate({ steps: [{ section: 'sabnzbd', payload: sabnzbdPayload(form) }] })}
      onDiscard={reset}
      dirty={dirty}
      valid={valid}
      saving={save.isPending}
      readOnly={readOnly}
    >
      <ToggleField
        label="Enable SABnzbd API"
        hint="Add Spool to Radarr/Sonarr as a SABnzbd download client with your API key (System section)."
        checked={form.enabled}
        onChange={(v) => set('enabled', v)}
      />
      <TextField
        label="Complete directory"
        value={form.complete_dir}
        onChange={(v) => set('complete_dir', v)}
        error={errors.complete_dir}
        hint="Where completed jobs live in Spool's virtual filesystem, e.g. /complete."
      />
      <div className="field-grid field-grid--2">
        <TextField
          label="Fallback host"
          value={form.fallback_host}
          onChange={(v) => set('fallback_host', v)}
          placeholder="http://sabnzbd:8080"
          hint="A real SABnzbd that receives NZBs Spool cannot stream (e.g. compressed archives). Empty: off."
        />
        <TextField
          label="Fallback API key"
          type="password"
          autoComplete="new-password"
          value={form.fallback_api_key}
          onChange={(v) => set('fallback_api_key', v)}
          placeholder="Not set"
          hint={saved.fallback_api_key_set ? 'A key is stored. Type a new one to replace it.' : 'No key is stored.'}
        />
      </div>
      <h3 className="config-section__subtitle">Categories</h3>
      {errors.categories?.map((message) => (
        <p key={message} className="field__error" role="alert">
          {message}
        </p>
      ))}
      <ul className="category-list" aria-label="Categories">
        {form.categories.map((c, i) => (
          <li key={i} className="category-row">
            <TextField label="Name" value={c.name} onChange={(v) => setCategory(i, { name: v })} />
            <NumberInput
              label="Order"
              value={c.order}
              rule={NUMBER_RULES['sabnzbd.categories.order']}
              onChange={(v) => setCategory(i, { order: v })}
              hint="Lower comes first"
            />
            <PrioritySelect value={c.priority} onChange={(v) => setCategory(i, { priority: v })} />
            <TextField label="Directory" value={c.dir} onChange={(v) => setCategory(i, { dir: v })} />
            <button
              type="button"
              className="btn btn--ghost"
              aria-label={`Remove category ${c.name}`}
              onClick={() =>
                set(
                  'categories',
                  form.categories.filter((_, j) => j !== i),
                )
              }
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <div className="category-add">
        <TextField label="New category" value={newName} onChange={setNewName} placeholder="e.g. anime" />
        <button
          type="button"
          className="btn"
          disabled={newName.trim() === ''}
          onClick={() => {
            set('categories', addCategory(form.categories, newName));
            setNewName('');
          }}
        >
          Add Category
        </button>
      </div>
    </SectionLayout>
  );
}

function PrioritySelect({ value, onChange }: { value: Priority; onChange: (value: Priority) => void }) {
  return (
    <div className="field">
      <label>
        Priority
        <select value={value} onChange={(e) => onChange(Number(e.target.value) as Priority)}>
          {PRIORITIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
