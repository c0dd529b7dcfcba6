import { useMemo } from 'react';
import type { SpoolConfig } from '../../../api/types';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm, type SaveStep } from '../useSectionForm';
import { MountOptionsPanel } from './rclone/MountOptionsPanel';
import { MountPanel } from './rclone/MountPanel';
import { RcPanel } from './rclone/RcPanel';
import { backendOf, toForm, toPayload, validate, type RcloneConfig, type RcloneForm } from './rclone/rcloneForm';
import { useMountControls } from './rclone/useMountControls';
import { useRcControls } from './rclone/useRcControls';
import './rclone/rclone.css';

/** Mount & RClone (docs/console-contract.md §2, §4): mount toggle and status, RC toggle and test, every mount/VFS setting. */
export function RcloneSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const saved = config.rclone as Partial<RcloneConfig> | undefined;
  const savedForm = useMemo(() => toForm(saved, config.mount_path), [saved, config.mount_path]);
  const { form, set, dirty, reset } = useSectionForm<RcloneForm>(savedForm);
  const errors = validate(form);
  const save = useSaveConfig('Mount settings saved');
  const savedMountEnabled = saved?.mount_enabled ?? false;
  const mount = useMountControls(savedMountEnabled, (on) => set('mount_enabled', on));
  const rc = useRcControls(saved?.rc_enabled ?? false, form, form.mount_enabled);
  const backend = backendOf(saved?.rc_enabled ?? false, form.mount_options);

  const onSave = () => {
    const steps: SaveStep[] = [];
    const rcloneChanged =
      JSON.stringify({ ...form, mount_path: '' }) !== JSON.stringify({ ...savedForm, mount_path: '' });
    if (rcloneChanged) steps.push({ section: 'rclone', payload: toPayload(form) });
    // docs/console-contract.md §7: mount_path alone is saved through the system section.
    if (form.mount_path !== savedForm.mount_path)
      steps.push({ section: 'system', payload: { mount_path: form.mount_path } });
    save.mutate({ steps }, { onSuccess: () => void mount.refreshStatus() });
  };

  return (
    <SectionLayout
      title="Mount & RClone"
      description="Mount the library as a local filesystem and let an external rclone refresh its cache after imports."
      onSave={onSave}
      onDiscard={reset}
      dirty={dirty}
      valid={Object.keys(errors).length === 0}
      saving={save.isPending}
      readOnly={readOnly}
      saveLabel="Save Mount Changes"
    >
      <MountPanel
        mountEnabled={form.mount_enabled}
        savedMountEnabled={savedMountEnabled}
        mountPath={form.mount_path}
        mountPathError={errors.mount_path}
        onMountPath={(v) => set('mount_path', v)}
        controls={mount}
        disabled={readOnly}
      />
      <RcPanel
        form={form}
        errors={errors}
        set={set}
        rc={rc}
        mountEnabled={form.mount_enabled}
        passSet={saved?.rc_pass_set ?? false}
        disabled={readOnly}
      />
      <MountOptionsPanel form={form} errors={errors} set={set} disabled={readOnly} native={backend === 'native'} />
    </SectionLayout>
  );
}
