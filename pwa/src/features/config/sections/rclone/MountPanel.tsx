import { Badge } from '../../../../components/Badge';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { Icon } from '../../../../components/Icon';
import { TextField, ToggleField } from '../../fields';
import type { useMountControls } from './useMountControls';

interface Props {
  mountEnabled: boolean;
  savedMountEnabled: boolean;
  mountPath: string;
  mountPathError?: string;
  onMountPath: (path: string) => void;
  controls: ReturnType<typeof useMountControls>;
  disabled?: boolean;
}

/** Mount toggle, mount path, status and Start/Stop (docs/console-contract.md §2, §4). */
export function MountPanel({
  mountEnabled,
  savedMountEnabled,
  mountPath,
  mountPathError,
  onMountPath,
  controls,
  disabled,
}: Props) {
  const { status, start, stop } = controls;
  const mounted = status.data?.mounted ?? false;
  const busy = start.isPending || stop.isPending || controls.disabling;
  return (
    <section className="rclone-block" aria-labelledby="rclone-mount-title">
      <h3 id="rclone-mount-title" className="rclone-block__title">
        <Icon name="mount" size={18} /> Mount
      </h3>
      <ToggleField
        label="Enable mount"
        hint="Mount the library as a local filesystem at the mount path."
        checked={mountEnabled}
        onChange={controls.toggle}
        disabled={disabled || controls.disabling}
      />
      <TextField
        label="Mount path"
        value={mountPath}
        onChange={onMountPath}
        error={mountPathError}
        disabled={disabled}
        hint="An absolute directory, e.g. /mnt/spool."
      />
      {savedMountEnabled && (
        <div className="rclone-status" data-testid="mount-status">
          <span>Status:</span>
          {status.isPending ? (
            <span className="muted">Checking...</span>
          ) : status.isError ? (
            <Badge tone="error">Unknown</Badge>
          ) : mounted ? (
            <Badge tone="success">Mounted</Badge>
          ) : (
            <Badge tone="neutral">Not Mounted</Badge>
          )}
          {status.data?.mount_point && <code className="rclone-status__point">{status.data.mount_point}</code>}
          {status.data?.error && <span className="field__error">{status.data.error}</span>}
          <span className="rclone-status__actions">
            {mounted ? (
              <button
                type="button"
                className="btn btn--secondary btn--sm"
                onClick={() => stop.mutate()}
                disabled={busy || disabled}
              >
                <Icon name="power" size={14} /> {stop.isPending ? 'Stopping...' : 'Stop Mount'}
              </button>
            ) : (
              <button
                type="button"
                className="btn btn--primary btn--sm"
                onClick={() => start.mutate()}
                disabled={busy || disabled || !mountPath.trim()}
              >
                <Icon name="stream" size={14} /> {start.isPending ? 'Starting...' : 'Start Mount'}
              </button>
            )}
          </span>
        </div>
      )}
      <ConfirmDialog
        open={controls.confirmDisable}
        title="Disable Mount"
        message="The mount is active. Disabling it will unmount the filesystem now; programs reading from it lose access."
        confirmLabel="Disable & Unmount"
        tone="danger"
        busy={controls.disabling}
        onConfirm={controls.disable}
        onCancel={controls.cancelDisable}
      />
    </section>
  );
}
