import type { SpoolConfig } from '../../../api/types';
import { TextField } from '../fields';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';

export function MetadataSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const { form, set, dirty, reset } = useSectionForm({ root_path: config.metadata.root_path ?? '' });
  const save = useSaveConfig('Metadata settings saved');
  const error = form.root_path.trim() ? undefined : 'Root path is required';

  return (
    <SectionLayout
      title="Metadata"
      description="Where Spool keeps its database: users, the queue, health records and the file layout of every import."
      onSave={() =>
        save.mutate({
          steps: [{ section: 'metadata', payload: { root_path: form.root_path.trim() } }],
          restartValues: { 'metadata.root_path': form.root_path.trim() },
        })
      }
      onDiscard={reset}
      dirty={dirty}
      valid={!error}
      saving={save.isPending}
      readOnly={readOnly}
    >
      <TextField
        label="Root path"
        value={form.root_path}
        onChange={(v) => set('root_path', v)}
        error={error}
        hint="A directory on local disk. Moving it takes effect after a server restart."
      />
    </SectionLayout>
  );
}
