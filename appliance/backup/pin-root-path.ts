import { parseDocument } from 'yaml';

/**
 * The restored config with `metadata.root_path` set to the current install's value: the restored store goes where
 * this install keeps its store, so a config written elsewhere cannot point the restored install at another one's
 * files. Everything else in the file, comments included, stays as backed up.
 */
export function pinRootPath(configText: Buffer, rootPath: string): Buffer {
  const doc = parseDocument(configText.toString('utf8'));
  if (doc.errors.length > 0) throw new Error(`the archive's config.yaml does not parse: ${doc.errors[0]!.message}`);
  if (doc.getIn(['metadata', 'root_path']) === rootPath) return configText;
  doc.setIn(['metadata', 'root_path'], rootPath);
  return Buffer.from(doc.toString());
}
