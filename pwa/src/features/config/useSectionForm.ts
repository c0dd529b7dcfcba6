import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { configApi } from '../../api/config';
import { describeError } from '../../api/client';
import type { ConfigSectionName, SpoolConfig } from '../../api/types';
import { keys } from '../../lib/queries';
import { toast } from '../../components/toast';
import { configDirty } from './configState';
import { addRestartRequired, changedRestartFields } from './restartState';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Form state of one section: the values as saved, the values being edited, and the dirty flag (spec §4).
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

/**
 * Saves one or more PATCH /config/{section} steps in order, keeps the cached config in step, feeds the restart
 * banner, and reports failures as an 'Update Failed' toast with the server's details (spec §8).
 * `restartValues` maps restart-only settings ('webdav.port'...) to the values this save sends.
 */
export function useSaveConfig(successTitle = 'Settings saved') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ steps, restartValues }: { steps: SaveStep[]; restartValues?: Record<string, unknown> }) => {
      const before = queryClient.getQueryData<SpoolConfig>(keys.config);
      let answer: SpoolConfig | undefined;
      const serverRestart: string[] = [];
      for (const step of steps) {
        answer = await configApi.patch(step.section, step.payload);
        if (Array.isArray(answer?.restart_required)) serverRestart.push(...answer.restart_required);
        if (answer && typeof answer === 'object' && 'webdav' in answer) {
          const { restart_required: _ignored, ...config } = answer;
          queryClient.setQueryData(keys.config, config);
        }
      }
      const beforeValues: Record<string, unknown> = before
        ? {
            'webdav.port': before.webdav?.port,
            'import.max_processor_workers': before.import?.max_processor_workers,
            'metadata.root_path': before.metadata?.root_path,
          }
        : {};
      return changedRestartFields(beforeValues, restartValues ?? {}, serverRestart);
    },
    onSuccess: async (restart) => {
      if (restart.length > 0) addRestartRequired(restart);
      toast.success(successTitle);
      await queryClient.invalidateQueries({ queryKey: keys.config });
    },
    onError: (err) => toast.error('Update Failed', describeError(err, 'The configuration could not be saved')),
  });
}
