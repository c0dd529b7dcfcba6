import type { SpoolConfig } from '../../../api/types';
import { LinesField, NumberInput } from '../fields';
import { fromLines, toLines } from '../lines';
import { NUMBER_RULES, rangeError } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';

export function ImportSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const { form, set, dirty, reset } = useSectionForm({
    max_processor_workers: config.import.max_processor_workers,
    queue_processing_interval_seconds: config.import.queue_processing_interval_seconds,
    scan_roots: toLines(config.import.scan_roots),
  });
  const save = useSaveConfig('Import settings saved');
  const workersError = rangeError(form.max_processor_workers, NUMBER_RULES['import.max_processor_workers']);
  const intervalError = rangeError(
    form.queue_processing_interval_seconds,
    NUMBER_RULES['import.queue_processing_interval_seconds'],
  );

  return (
    <SectionLayout
      title="Import Processing"
      description="How many NZBs are imported in parallel and how often the queue is checked for new work."
      onSave={() =>
        save.mutate({
          steps: [{ section: 'import', payload: { ...form, scan_roots: fromLines(form.scan_roots) } }],
          restartValues: { 'import.max_processor_workers': form.max_processor_workers },
        })
      }
      onDiscard={reset}
      dirty={dirty}
      valid={!workersError && !intervalError}
      saving={save.isPending}
      readOnly={readOnly}
    >
      <div className="field-grid field-grid--2">
        <NumberInput
          label="Max processor workers"
          value={form.max_processor_workers}
          rule={NUMBER_RULES['import.max_processor_workers']}
          onChange={(v) => set('max_processor_workers', v)}
          error={workersError}
          hint="1 – 20. Takes effect after a server restart."
        />
        <NumberInput
          label="Queue processing interval (seconds)"
          value={form.queue_processing_interval_seconds}
          rule={NUMBER_RULES['import.queue_processing_interval_seconds']}
          onChange={(v) => set('queue_processing_interval_seconds', v)}
          error={intervalError}
          hint="1 – 300. Interval changes need a service restart."
        />
      </div>
      <LinesField
        label="Scan roots"
        value={form.scan_roots}
        onChange={(v) => set('scan_roots', v)}
        placeholder="/data/nzb"
        hint="The folders a manual scan may read, one per line. Scans of any other path are refused."
      />
    </SectionLayout>
  );
}
