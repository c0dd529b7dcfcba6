import { classifyName, extensionOf } from './classify.js';
import { dedupeNames, type VirtualFile } from './grouping.js';
import { extensionFromMagic } from './magic.js';
import { isObfuscatedName } from './naming.js';

const ARCHIVE_MAGIC = new Set(['rar', '7z']);

export interface JobNamingInput {
  /** The job's name (the NZB's name without `.nzb`). */
  jobName: string;
  /** The first decoded bytes of a file (its first article), for the extension. */
  headOf(file: VirtualFile): Uint8Array | undefined;
  /** The file's size, so the largest file gets the plain job name. */
  sizeOf(file: VirtualFile): number;
}

/**
 * Files whose best name still looks random after PAR2, subject and yEnc (a fully obfuscated post without PAR2)
 * are named after the job, as SABnzbd does: `Job.Name.mkv`, the largest first, then `Job.Name (2).mkv` ...
 * The extension is the file's own when it has a known one, else what its first bytes announce (magic.ts).
 * Nothing changes when the job's own name looks random too: one random name is as good as another.
 */
export function nameObfuscatedAfterJob(files: VirtualFile[], input: JobNamingInput): void {
  if (isObfuscatedName(input.jobName) || input.jobName.trim() === '') return;
  // Archive volumes keep their names: the archive reader orders and groups them by their headers, and what it
  // exposes are the members, with the names stored inside.
  const isVolume = (f: VirtualFile) => {
    const head = input.headOf(f);
    return head !== undefined && ARCHIVE_MAGIC.has(extensionFromMagic(head));
  };
  const random = files.filter((f) => f.obfuscated && !isVolume(f)).sort((a, b) => input.sizeOf(b) - input.sizeOf(a));
  if (random.length === 0) return;
  for (const file of random) {
    const own = classifyName(file.name) !== 'other' ? extensionOf(file.name) : '';
    const head = input.headOf(file);
    const ext = own || (head ? extensionFromMagic(head) : '');
    file.name = ext ? `${input.jobName}.${ext}` : input.jobName;
    file.kind = classifyName(file.name);
    file.nameSource = 'job';
    file.obfuscated = false;
  }
  // The renamed files go first so the largest keeps the plain name; the others' names are left as they were.
  const order = [...random, ...files.filter((f) => !random.includes(f))];
  dedupeNames(order);
}
