import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { configApi } from '../../api/config';
import { describeError } from '../../api/client';
import type { ConfigSectionName, SpoolConfig } from '../../api/types';
import { configKeys } from './configKeys';
import { toast } from '../../components/toast';
import { configDirty } from './configState';
import { addRestartRequired, changedRestartFields, syncRestartRequired } from './restartState';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Form state of one section: the values as saved, the values being edited, and the dirty flag (docs/console-contract.md §4).
 * When the saved values change (after a save or a reload) the form follows them.
 */
export function useSectionForm<T extends object>(saved: T) {
  const [form, setForm] = useState<T>(saved);
  const savedJson = JSON.stringify(saved);
  useEffect(() => {
    setForm(JSON.parse(savedJson) as T);
  }, [savedJson]);
  const dirty = useMemo(() => !same(form, JSON.parse(savedJson)), [form, savedJson]);

  useEffect(() => {
    configDirty.value = dirty;
  }, [dirty]);
  useEffect(() => () => void (configDirty.value = false), []);

  const set = <K extends keyof T>(key: K, value: T[K]) => setForm((f) => ({ ...f, [key]: value }));
  const reset = () => setForm(JSON.parse(savedJson) as T);
  return { form, set, dirty, reset, setForm };
}

export interface SaveStep {
  section: ConfigSectionName;
  payload: Record<string, unknown>;
}

function restartValuesOf(config: SpoolConfig | undefined): Record<string, unknown> {
  if (!config) return {};
  return {
    'webdav.port': config.webdav?.port,
    'import.max_processor_workers': config.import?.max_processor_workers,
    'metadata.root_path': config.metadata?.root_path,
  };
}

/**
 * Saves one or more PATCH /config/{section} steps in order, keeps the cached config in step, feeds the restart
 * banner, and reports failures as an 'Update Failed' toast with the server's details (docs/console-contract.md §8).
 * `restartValues` maps restart-only settings ('webdav.port'...) to the values this save sends; they are used only
 * when the server does not send its own `restart_required` list.
 */
export function useSaveConfig(successTitle = 'Settings saved') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ steps, restartValues }: { steps: SaveStep[]; restartValues?: Record<string, unknown> }) => {
      const before = restartValuesOf(queryClient.getQueryData<SpoolConfig>(configKeys.values));
      let serverList: string[] | undefined;
      for (const step of steps) {
        const answer = await configApi.patch(step.section, step.payload);
        if (answer?.config) queryClient.setQueryData(configKeys.values, answer.config);
        if (Array.isArray(answer?.restart_required)) serverList = answer.restart_required;
      }
      if (serverList) return { fields: serverList, fromServer: true };
      return { fields: changedRestartFields(before, restartValues ?? {}, undefined), fromServer: false };
    },
    onSuccess: ({ fields, fromServer }) => {
      // The server's list is the whole truth (changed since it started); the local guess only adds.
      if (fromServer) syncRestartRequired(fields);
      else addRestartRequired(fields);
      toast.success(successTitle);
    },
    onError: (err) => toast.error('Update Failed', describeError(err, 'The configuration could not be saved')),
  });
}
