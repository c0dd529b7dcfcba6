import type { SpoolConfig } from '../../../api/types';
import { NumberInput } from '../fields';
import { NUMBER_RULES, rangeError } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';

export function StreamingSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const { form, set, dirty, reset } = useSectionForm({
    max_cache_size_mb: config.streaming.max_cache_size_mb,
    max_download_workers: config.streaming.max_download_workers,
  });
  const save = useSaveConfig('Streaming settings saved');
  const cacheError = rangeError(form.max_cache_size_mb, NUMBER_RULES['streaming.max_cache_size_mb']);
  const workersError = rangeError(form.max_download_workers, NUMBER_RULES['streaming.max_download_workers']);

  return (
    <SectionLayout
      title="Streaming & Downloads"
      description="How much is cached in memory and how many articles are fetched at once for each stream."
      onSave={() => save.mutate({ steps: [{ section: 'streaming', payload: { ...form } }] })}
      onDiscard={reset}
      dirty={dirty}
      valid={!cacheError && !workersError}
      saving={save.isPending}
      readOnly={readOnly}
    >
      <div className="field-grid field-grid--2">
        <NumberInput
          label="Max cache size (MB)"
          value={form.max_cache_size_mb}
          rule={NUMBER_RULES['streaming.max_cache_size_mb']}
          onChange={(v) => set('max_cache_size_mb', v)}
          error={cacheError}
        />
        <NumberInput
          label="Max download workers"
          value={form.max_download_workers}
          rule={NUMBER_RULES['streaming.max_download_workers']}
          onChange={(v) => set('max_download_workers', v)}
          error={workersError}
        />
      </div>
    </SectionLayout>
  );
}
