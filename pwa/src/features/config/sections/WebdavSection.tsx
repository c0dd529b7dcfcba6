import { Link } from 'react-router-dom';
import type { SpoolConfig } from '../../../api/types';
import { Icon } from '../../../components/Icon';
import { NumberInput, SecretField, TextField } from '../fields';
import { NUMBER_RULES, rangeError } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm, type SaveStep } from '../useSectionForm';

interface WebdavForm {
  port: number;
  user: string;
  /** Write-only: empty keeps the current password. */
  password: string;
  mount_path: string;
}

export function WebdavSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const { form, set, dirty, reset } = useSectionForm<WebdavForm>({
    port: config.webdav.port,
    user: config.webdav.user ?? '',
    password: '',
    mount_path: config.mount_path ?? '',
  });
  const save = useSaveConfig('WebDAV settings saved');
  const portError = rangeError(form.port, NUMBER_RULES['webdav.port']);
  // The server's rule (appliance/config/schema.ts): empty keeps the current password, otherwise 8 or more.
  const passwordError =
    form.password && form.password.length < 8 ? 'Password must be at least 8 characters long' : undefined;

  const onSave = () => {
    const webdav: Record<string, unknown> = { port: form.port, user: form.user };
    if (form.password) webdav.password = form.password;
    const steps: SaveStep[] = [{ section: 'webdav', payload: webdav }];
    if (form.mount_path !== (config.mount_path ?? '')) {
      steps.push({ section: 'system', payload: { mount_path: form.mount_path } });
    }
    save.mutate({ steps, restartValues: { 'webdav.port': form.port } });
  };

  return (
    <SectionLayout
      title="WebDAV Server"
      description="The WebDAV view of your library, used by media servers, rclone and the Files screen."
      onSave={onSave}
      onDiscard={reset}
      dirty={dirty}
      valid={!portError && !passwordError}
      saving={save.isPending}
      readOnly={readOnly}
    >
      <div className="field-grid field-grid--2">
        <NumberInput
          label="Port"
          value={form.port}
          rule={NUMBER_RULES['webdav.port']}
          onChange={(v) => set('port', v)}
          error={portError}
          hint="Changing the port takes effect after a server restart."
        />
        <TextField label="Username" value={form.user} onChange={(v) => set('user', v)} autoComplete="off" />
        <SecretField
          label="Password"
          value={form.password}
          onChange={(v) => set('password', v)}
          isSet={config.webdav.password_set}
          error={passwordError}
        />
        <TextField
          label="Mount path"
          value={form.mount_path}
          onChange={(v) => set('mount_path', v)}
          hint="Where the library is mounted on this machine."
        />
      </div>
      <p>
        <Link to="/config/rclone" className="inline-link">
          <Icon name="mount" size={16} /> Configure RClone Mount
        </Link>
      </p>
    </SectionLayout>
  );
}
