import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, describeError } from '../../../../api/client';
import { configApi } from '../../../../api/config';
import { toast } from '../../../../components/toast';
import { configKeys } from '../../configKeys';
import { rcloneApi } from './rcloneApi';
import { parseOptions, type RcloneForm } from './rcloneForm';

export type RcTestResult = { ok: true } | { ok: false; message: string };

/** The RC connection settings as the toggle and the test send them; rc_pass only when typed (docs/console-contract.md §4). */
function connection(form: RcloneForm) {
  const c: { rc_url: string; rc_port: number; rc_user: string; rc_pass?: string } = {
    rc_url: form.rc_url.trim(),
    rc_port: form.rc_port,
    rc_user: form.rc_user,
  };
  if (form.rc_pass.trim() !== '') c.rc_pass = form.rc_pass;
  return c;
}

/**
 * The RC toggle is saved at once together with the connection it will use, and put back with an error toast
 * when the save fails. The test posts the form's settings to POST /rclone/test.
 */
export function useRcControls(savedRcEnabled: boolean, form: RcloneForm, mountEnabled: boolean) {
  const queryClient = useQueryClient();
  const [rcEnabled, setRcEnabled] = useState(savedRcEnabled);
  const [testResult, setTestResult] = useState<RcTestResult | null>(null);
  useEffect(() => setRcEnabled(savedRcEnabled), [savedRcEnabled]);

  const save = useMutation({
    mutationFn: (on: boolean) => configApi.patch('rclone', { rc_enabled: on, ...connection(form) }),
    onSuccess: (answer, on) => {
      if (answer?.config) queryClient.setQueryData(configKeys.values, answer.config);
      toast.success(on ? 'RC enabled' : 'RC disabled');
    },
    onError: (err, on) => {
      setRcEnabled(!on);
      toast.error(on ? 'Failed to enable RC' : 'Failed to disable RC', describeError(err, 'Unknown error occurred'));
    },
  });

  const test = useMutation({
    mutationFn: () =>
      rcloneApi.test({
        rc_enabled: rcEnabled,
        ...connection(form),
        rc_options: parseOptions(form.rc_options).value,
        mount_enabled: mountEnabled,
        mount_options: parseOptions(form.mount_options).value,
      }),
    onMutate: () => setTestResult(null),
    onSuccess: (data) => {
      if (data?.success) {
        setTestResult({ ok: true });
        toast.success('Connection successful! RClone RC is accessible.');
      } else {
        const message = data?.error_message || 'Connection failed';
        setTestResult({ ok: false, message });
        toast.error('Connection failed', message);
      }
    },
    onError: (err) => {
      const network = err instanceof ApiError && err.isNetworkError;
      const message = network ? 'Network error occurred' : describeError(err, 'Test failed');
      setTestResult({ ok: false, message });
      toast.error(network ? 'Network error occurred' : 'Test failed', network ? undefined : message);
    },
  });

  return {
    rcEnabled,
    // Flip in the change event itself: React puts a controlled checkbox back if its state did not change there.
    toggle: (on: boolean) => {
      setRcEnabled(on);
      save.mutate(on);
    },
    saving: save.isPending,
    test: () => test.mutate(),
    testing: test.isPending,
    testResult,
    /** docs/console-contract.md §5: the test needs an RC URL or RC switched on. */
    canTest: form.rc_url.trim() !== '' || rcEnabled,
  };
}
