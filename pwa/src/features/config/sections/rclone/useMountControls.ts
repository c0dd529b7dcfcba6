import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, describeError } from '../../../../api/client';
import { configApi } from '../../../../api/config';
import { toast } from '../../../../components/toast';
import { configKeys } from '../../configKeys';
import { rcloneApi } from './rcloneApi';

const UNKNOWN = 'Unknown error occurred';

/** 'Failed to …' when the server answered with an error, 'Error …' when it could not be reached (docs/console-contract.md §8). */
function reportFailure(err: unknown, failed: string, errored: string) {
  if (err instanceof ApiError && !err.isNetworkError) toast.error(failed, describeError(err, UNKNOWN));
  else toast.error(errored, describeError(err, UNKNOWN));
}

/**
 * Mount status and the start/stop/disable flows of docs/console-contract.md §4. Status is asked for on load when the mount is
 * enabled in the saved config, and again after every change.
 */
export function useMountControls(savedMountEnabled: boolean, setMountEnabled: (on: boolean) => void) {
  const queryClient = useQueryClient();
  const [confirmDisable, setConfirmDisable] = useState(false);
  const status = useQuery({
    queryKey: configKeys.mountStatus,
    queryFn: rcloneApi.status,
    enabled: savedMountEnabled,
    retry: false,
  });
  const refreshStatus = () => queryClient.invalidateQueries({ queryKey: configKeys.mountStatus });

  const start = useMutation({
    mutationFn: rcloneApi.start,
    onSuccess: (data) => toast.success('Mount started', data?.message),
    onError: (err) => reportFailure(err, 'Failed to start mount', 'Error starting mount'),
    onSettled: refreshStatus,
  });
  const stop = useMutation({
    mutationFn: rcloneApi.stop,
    onSuccess: (data) => toast.success('Mount stopped', data?.message),
    onError: (err) => reportFailure(err, 'Failed to stop mount', 'Error stopping mount'),
    onSettled: refreshStatus,
  });

  /** Confirmed 'Disable & Unmount': stop, then save mount_enabled=false; a failed stop puts the toggle back on. */
  const disable = useMutation({
    mutationFn: async () => {
      try {
        await rcloneApi.stop();
      } catch (err) {
        setMountEnabled(true);
        reportFailure(err, 'Failed to stop mount', 'Error stopping mount');
        return false;
      }
      const answer = await configApi.patch('rclone', { mount_enabled: false });
      if (answer?.config) queryClient.setQueryData(configKeys.values, answer.config);
      return true;
    },
    onSuccess: (done) => {
      if (done) toast.success('Mount disabled');
    },
    onError: (err) => {
      setMountEnabled(true);
      toast.error('Failed to disable mount', describeError(err, UNKNOWN));
    },
    onSettled: () => {
      setConfirmDisable(false);
      void refreshStatus();
    },
  });

  /** The mount toggle: enabling only marks the form changed; disabling a live mount asks first. */
  const toggle = (on: boolean) => {
    if (on) {
      setMountEnabled(true);
      toast.info('Mount enabled', 'Please configure the mount path and save your changes');
    } else if (status.data?.mounted) {
      setConfirmDisable(true);
    } else {
      setMountEnabled(false);
    }
  };

  return {
    status,
    start,
    stop,
    toggle,
    confirmDisable,
    cancelDisable: () => setConfirmDisable(false),
    disable: () => {
      setMountEnabled(false);
      disable.mutate();
    },
    disabling: disable.isPending,
    refreshStatus,
  };
}
