import busboy from 'busboy';
import { AppError } from '../errors/app-error.js';
import { validationFailed } from '../errors/field-errors.js';
import { NAME_CONTROL_CHARS, nameFromHeader } from '../text/names.js';
import type { HttpRequest } from './request.js';

export interface MultipartFile {
  filename: string;
  bytes: Buffer;
  /** Plain form fields (category, priority, ...), first value of each. */
  fields: Record<string, string>;
}

export interface MultipartRules {
  /** Form field names that may carry the file; the first file part among them is taken, the rest skipped. */
  fileFields: readonly string[];
  /** The largest file accepted, in bytes. */
  maxFileBytes: number;
  /** The largest whole body (file, framing, fields); a declared Content-Length above it is refused before reading. */
  maxBodyBytes: number;
  /** What to throw when the file or body is too large. */
  tooLarge: () => AppError;
  /** Checked against the file's name as soon as its part starts: an error refuses the upload, undefined accepts. */
  checkName?: (filename: string) => AppError | undefined;
  /** Message when the multipart body has no file part. */
  missingFile: string;
  /** Message when the body is not multipart/form-data. */
  notMultipart: string;
}

/**
 * Reads a multipart upload as it streams in (busboy): the first file part among `fileFields`, refused as soon as
 * its name fails `checkName` or it passes `maxFileBytes`, so a wrong or huge upload is never held in memory whole.
 */
export function readMultipartFile(req: HttpRequest, rules: MultipartRules): Promise<MultipartFile> {
  const body = req.body;
  const type = req.header('content-type') ?? '';
  if (!body || !/^multipart\/form-data/i.test(type)) {
    return Promise.reject(new AppError('NOT_MULTIPART', rules.notMultipart));
  }
  if (body.declaredLength !== null && body.declaredLength > rules.maxBodyBytes) return Promise.reject(rules.tooLarge());
  return new Promise<MultipartFile>((resolve, reject) => {
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
      if (!file) return reject(validationFailed([{ field: 'file', message: rules.missingFile }], rules.missingFile));
      resolve({ ...file, fields });
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': type },
        limits: { fileSize: rules.maxFileBytes, files: 1, fields: 20, fieldSize: 4096, parts: 25 },
        // Plain `filename="..."` bytes are handed over as Latin-1 (byte-preserving) and decoded below as UTF-8
        // first: browsers and arrs send UTF-8, and `Amélie.nzb` must not become the job `AmÃ©lie`.
        defParamCharset: 'latin1',
      });
    } catch (err) {
      return finish(new AppError('MALFORMED_BODY', `Malformed multipart upload: ${(err as Error).message}`));
    }
    parser.on('field', (name, value) => {
      if (!(name in fields)) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (!rules.fileFields.includes(name) || file) {
        stream.resume();
        return;
      }
      const filename = uploadedName(info.filename);
      const refused = rules.checkName?.(filename);
      if (refused) {
        stream.resume();
        return finish(refused);
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => finish(rules.tooLarge()));
      stream.on('end', () => {
        if (!(stream as unknown as { truncated?: boolean }).truncated)
          file = { filename: filename || 'upload', bytes: Buffer.concat(chunks) };
      });
    });
    parser.on('close', () => finish());
    parser.on('error', (err: Error) =>
      finish(new AppError('MALFORMED_BODY', `Malformed multipart upload: ${err.message}`)),
    );
    body.on('error', (err) =>
      finish(err instanceof AppError && err.code === 'BODY_TOO_LARGE' ? rules.tooLarge() : err),
    );
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
