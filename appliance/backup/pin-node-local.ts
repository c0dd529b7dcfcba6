import { parseDocument } from 'yaml';

/** This install's node-local store keys, kept over whatever the archive's config says. */
export interface NodeLocalStore {
  /** `metadata.root_path` as this install's config writes it. */
  rootPath: string;
  /** `metadata.database_url` as this install's config writes it ('' on LMDB). */
  databaseUrl: string;
}

/**
 * The restored config with `metadata.root_path` and `metadata.database_url` set to the current install's values:
 * the restored store goes where this install keeps its store, so a config written elsewhere cannot point the
 * restored install at another one's files or database. Everything else in the file, comments included, stays as
 * backed up.
 */
export function pinNodeLocal(configText: Buffer, local: NodeLocalStore): Buffer {
  const doc = parseDocument(configText.toString('utf8'));
  if (doc.errors.length > 0) throw new Error(`the archive's config.yaml does not parse: ${doc.errors[0]!.message}`);
  const same =
    doc.getIn(['metadata', 'root_path']) === local.rootPath &&
    (doc.getIn(['metadata', 'database_url']) ?? '') === local.databaseUrl;
  if (same) return configText;
  doc.setIn(['metadata', 'root_path'], local.rootPath);
  if (local.databaseUrl || doc.hasIn(['metadata', 'database_url']))
    doc.setIn(['metadata', 'database_url'], local.databaseUrl);
  return Buffer.from(doc.toString());
}
