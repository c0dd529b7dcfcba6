import type { SpoolConfig } from '../../../api/types';
import { NumberFields, numberErrors, type NumberRow } from '../NumberFields';
import { NUMBER_RULES } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';

const NUMBERS = [
  ['max_cache_size_mb', 'Max cache size (MB)'],
  ['max_download_workers', 'Max download workers'],
] as const satisfies readonly NumberRow<keyof SpoolConfig['streaming']>[];
const rule = (key: (typeof NUMBERS)[number][0]) => NUMBER_RULES[`streaming.${key}`];

export function StreamingSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const { form, set, dirty, reset } = useSectionForm({
    max_cache_size_mb: config.streaming.max_cache_size_mb,
    max_download_workers: config.streaming.max_download_workers,
  });
  const save = useSaveConfig('Streaming settings saved');
  const errors = numberErrors(NUMBERS, form, rule);

  return (
    <SectionLayout
      title="Streaming & Downloads"
      description="How much is cached in memory and how many articles are fetched at once for each stream."
      onSave={() => save.mutate({ steps: [{ section: 'streaming', payload: { ...form } }] })}
      onDiscard={reset}
      dirty={dirty}
      valid={Object.values(errors).every((e) => !e)}
      saving={save.isPending}
      readOnly={readOnly}
    >
      <div className="field-grid field-grid--2">
        <NumberFields rows={NUMBERS} values={form} errors={errors} rule={rule} onChange={set} />
      </div>
    </SectionLayout>
  );
}
