/**
 * NZB fixtures for the console's browser tests: real ones posted to the shared INN (they import), ones whose
 * articles do not exist (they fail: missing on every provider), and malformed XML (fails at once).
 */
import { randomBytes } from 'node:crypto';
import type { InnServer } from '../../support/inn/server.js';
import { film } from '../../support/media/film.js';

export async function postedNzb(inn: InnServer, name: string, size = 150_000): Promise<string> {
  const posted = await inn.postFile(name, film(size, name), { articleSize: 64_000 });
  return posted.nzbXml;
}

/** A well-formed NZB whose only article was never posted anywhere. */
export function missingArticleNzb(name: string): string {
  const id = `${randomBytes(8).toString('hex')}@missing.spool.test`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<nzb xmlns="http://www.newzbin.com/DTD/2003/nzb">
  <file poster="e2e" date="1700000000" subject="&quot;${name}&quot; yEnc (1/1)">
    <groups><group>alt.binaries.spool.test</group></groups>
    <segments><segment bytes="1000" number="1">${id}</segment></segments>
  </file>
</nzb>
`;
}

export const MALFORMED_NZB = '<?xml version="1.0"?><nzb><file subject="broken"><segments><segment';
