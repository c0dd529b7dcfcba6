import busboy from 'busboy';
import { AppError, validationFailed } from '../http/errors.js';
import type { HttpRequest } from '../http/request.js';
import { NAME_CONTROL_CHARS, nameFromHeader } from '../nntp/header-text.js';

/** Spec §5/§9: an uploaded NZB is at most 100 MB. */
export const MAX_NZB_BYTES = 100 * 1024 * 1024;
/** The route's body limit: the file plus room for the multipart framing and the small fields. */
export const UPLOAD_BODY_LIMIT = MAX_NZB_BYTES + 256 * 1024;

export const TOO_LARGE_MESSAGE = 'File size must be less than 100MB';
export const NOT_NZB_MESSAGE = 'Only .nzb files are allowed';

export interface NzbUpload {
  filename: string;
  bytes: Buffer;
  /** Plain form fields (category, priority, ...), first value of each. */
  fields: Record<string, string>;
}

const tooLarge = () =>
  new AppError('PAYLOAD_TOO_LARGE', TOO_LARGE_MESSAGE, [{ field: 'file', message: TOO_LARGE_MESSAGE }]);
const notNzb = () => validationFailed([{ field: 'file', message: NOT_NZB_MESSAGE }], NOT_NZB_MESSAGE);

/**
 * Reads a multipart upload as it streams in (busboy): the first file part among `fileFields`, refused as soon as
 * its name is not `.nzb` or it passes 100 MB, so a wrong or huge upload is never held in memory whole.
 */
export function readNzbUpload(req: HttpRequest, fileFields: readonly string[]): Promise<NzbUpload> {
  const body = req.body;
  const type = req.header('content-type') ?? '';
  if (!body || !/^multipart\/form-data/i.test(type)) {
    return Promise.reject(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Upload the NZB as multipart/form-data'));
  }
  if (body.declaredLength !== null && body.declaredLength > UPLOAD_BODY_LIMIT) return Promise.reject(tooLarge());
  return new Promise<NzbUpload>((resolve, reject) => {
    let settled = false;
    const fields: Record<string, string> = {};
    let file: { filename: string; bytes: Buffer } | undefined;
    const finish = (err?: unknown) => {
      if (settled) return;
      settled = true;
      if (err) {
        body.unpipe();
        return reject(err);
      }
      if (!file)
        return reject(
          validationFailed([{ field: 'file', message: 'No NZB file in the upload' }], 'No NZB file in the upload'),
        );
      resolve({ ...file, fields });
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': type },
        limits: { fileSize: MAX_NZB_BYTES, files: 1, fields: 20, fieldSize: 4096, parts: 25 },
        // Plain `filename="..."` bytes are handed over as Latin-1 (byte-preserving) and decoded below as UTF-8
        // first: browsers and arrs send UTF-8, and `Amélie.nzb` must not become the job `AmÃ©lie`.
        defParamCharset: 'latin1',
      });
    } catch (err) {
      return finish(new AppError('BAD_REQUEST', `Malformed multipart upload: ${(err as Error).message}`));
    }
    parser.on('field', (name, value) => {
      if (!(name in fields)) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const filename = uploadedName(info.filename);
      if (!fileFields.includes(name) || file) {
        stream.resume();
        return;
      }
      if (!/\.nzb$/i.test(filename)) {
        stream.resume();
        return finish(notNzb());
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => finish(tooLarge()));
      stream.on('end', () => {
        if (!(stream as unknown as { truncated?: boolean }).truncated)
          file = { filename: filename || 'upload.nzb', bytes: Buffer.concat(chunks) };
      });
    });
    parser.on('close', () => finish());
    parser.on('error', (err: Error) =>
      finish(new AppError('BAD_REQUEST', `Malformed multipart upload: ${err.message}`)),
    );
    body.on('error', (err) => finish(err instanceof AppError && err.code === 'PAYLOAD_TOO_LARGE' ? tooLarge() : err));
    body.pipe(parser);
  });
}

/**
 * The part's file name as text. busboy gives `filename="..."` as Latin-1 (each byte one char) and an RFC 5987
 * `filename*=UTF-8''...` already decoded; only the former is re-read as UTF-8 (Latin-1 for invalid bytes).
 */
function uploadedName(raw: string | undefined): string {
  if (!raw) return '';
  // eslint-disable-next-line no-control-regex
  const byteString = /^[\u0000-\u00ff]*$/.test(raw);
  return byteString ? nameFromHeader(raw) : raw.replace(NAME_CONTROL_CHARS, '');
}
