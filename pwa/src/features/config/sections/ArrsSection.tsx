import { useState } from 'react';
import type { SpoolConfig } from '../../../api/types';
import { ToggleField } from '../fields';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';
import { AddItemButton, CardGroup, patchAt, ProblemsAlert, removeAt } from './cards/CardList';
import { AddInstanceModal } from './arrs/AddInstanceModal';
import {
  formFromConfig,
  listKey,
  payloadOf,
  TYPE_LABEL,
  validationIssues,
  type ArrInstanceForm,
} from './arrs/arrsForm';
import { InstanceCard } from './arrs/InstanceCard';
import './arrs/arrs.css';

/**
 * Radarr/Sonarr Management (docs/arrs.md): instance cards per type, an add-instance dialog, a connection test per
 * instance. Save sends the whole section and is blocked while any validation issue is listed.
 */
export function ArrsSection({ config, readOnly = false }: SectionProps & { config: SpoolConfig }) {
  const { form, setForm, dirty, reset } = useSectionForm(formFromConfig(config.arrs));
  const save = useSaveConfig('Radarr/Sonarr settings saved');
  const [adding, setAdding] = useState(false);
  const issues = validationIssues(form);

  const update = (inst: ArrInstanceForm, index: number, patch: Partial<ArrInstanceForm>) =>
    setForm((f) => ({ ...f, [listKey(inst.type)]: patchAt(f[listKey(inst.type)], index, patch) }));
  const remove = (inst: ArrInstanceForm, index: number) =>
    setForm((f) => ({ ...f, [listKey(inst.type)]: removeAt(f[listKey(inst.type)], index) }));
  const add = (inst: ArrInstanceForm) => {
    setForm((f) => ({ ...f, [listKey(inst.type)]: [...f[listKey(inst.type)], inst] }));
    setAdding(false);
  };

  return (
    <>
      <SectionLayout
        title="Radarr/Sonarr Management"
        description="The Radarr and Sonarr instances Spool asks to replace a file whose articles are gone."
        onSave={() => save.mutate({ steps: [{ section: 'arrs', payload: payloadOf(form) }] })}
        onDiscard={reset}
        dirty={dirty}
        valid={issues.length === 0}
        saving={save.isPending}
        readOnly={readOnly}
      >
        <ToggleField
          label="Enable Radarr/Sonarr management"
          hint="Broken files are handed to the instance that manages them for a new download."
          checked={form.enabled}
          onChange={(v) => setForm((f) => ({ ...f, enabled: v }))}
        />
        <ProblemsAlert problems={issues} title="Please fix these issues before saving:" />
        {(['radarr', 'sonarr'] as const).map((type) => (
          <CardGroup
            key={type}
            label={`${TYPE_LABEL[type]} instances`}
            title={`${TYPE_LABEL[type]} Instances`}
            emptyText={`No ${TYPE_LABEL[type]} instances configured.`}
          >
            {form[listKey(type)].map((inst, i) => (
              <InstanceCard
                key={`${type}-${i}`}
                instance={inst}
                index={i}
                readOnly={readOnly}
                onChange={(patch) => update(inst, i, patch)}
                onRemove={() => remove(inst, i)}
              />
            ))}
          </CardGroup>
        ))}
        <AddItemButton label="Add Instance" readOnly={readOnly} onClick={() => setAdding(true)} />
      </SectionLayout>
      {adding && <AddInstanceModal onAdd={add} onClose={() => setAdding(false)} />}
    </>
  );
}
