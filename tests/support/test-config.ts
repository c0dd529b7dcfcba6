/**
 * Test releases are random bytes under media names (.mkv): unless a test says otherwise, the importer's check of
 * media headers (import.verify_media_headers, docs/import.md) is off for them.
 */
export function withTestImportDefaults(config: Record<string, unknown>): Record<string, unknown> {
  const imp = (config.import ?? {}) as Record<string, unknown>;
  return { ...config, import: { verify_media_headers: false, ...imp } };
}
