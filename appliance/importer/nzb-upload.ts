import { AppError } from '../errors/app-error.js';
import { validationFailed } from '../errors/field-errors.js';
import { readMultipartFile, type MultipartFile } from '../http/multipart.js';
import type { HttpRequest } from '../http/request.js';
import { nzbContentProblem } from './nzb-sniff.js';

/** docs/console-contract.md §5/§9: an uploaded NZB is at most 100 MB. */
export const MAX_NZB_BYTES = 100 * 1024 * 1024;
/** The route's body limit: the file plus room for the multipart framing and the small fields. */
export const UPLOAD_BODY_LIMIT = MAX_NZB_BYTES + 256 * 1024;

export const TOO_LARGE_MESSAGE = 'File size must be less than 100MB';
export const NOT_NZB_MESSAGE = 'Only .nzb files are allowed';

export type NzbUpload = MultipartFile;

const tooLarge = () =>
  new AppError('BODY_TOO_LARGE', TOO_LARGE_MESSAGE, [{ field: 'file', message: TOO_LARGE_MESSAGE }]);
const notNzb = () => validationFailed([{ field: 'file', message: NOT_NZB_MESSAGE }], NOT_NZB_MESSAGE);

/** An NZB upload: the multipart reading is HTTP's; the rules (a `.nzb` name, 100 MB at most) are the importer's. */
export async function readNzbUpload(req: HttpRequest, fileFields: readonly string[]): Promise<NzbUpload> {
  const upload = await readMultipartFile(req, {
    fileFields,
    maxFileBytes: MAX_NZB_BYTES,
    maxBodyBytes: UPLOAD_BODY_LIMIT,
    tooLarge,
    checkName: (filename) => (/\.nzb$/i.test(filename) ? undefined : notNzb()),
    missingFile: 'No NZB file in the upload',
    notMultipart: 'Upload the NZB as multipart/form-data',
  });
  // The spec's upload text first (the console shows the message), then why: an empty file, or not an NZB.
  const problem = nzbContentProblem(upload.bytes);
  if (problem) {
    const message = `${NOT_NZB_MESSAGE}: ${problem}`;
    throw validationFailed([{ field: 'file', message }], message);
  }
  return upload;
}
