/**
 * The integration harnesses' (server.ts, child-server.ts) import settings: many of their releases are still random
 * bytes under media names (.mkv), so unless a test says otherwise the importer's check of media headers
 * (import.verify_media_headers, docs/import.md) is off for them. The browser tests run with the default (on): their
 * films start as their container (tests/support/media/film.ts), as every test film should.
 */
export function withTestImportDefaults(config: Record<string, unknown>): Record<string, unknown> {
  const imp = (config.import ?? {}) as Record<string, unknown>;
  return { ...config, import: { verify_media_headers: false, ...imp } };
}
