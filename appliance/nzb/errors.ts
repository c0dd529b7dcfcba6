/** Why an NZB was refused. `kind` lets the importer word the queue item's error; the message is for people. */
export type NzbParseErrorKind = 'malformed' | 'forbidden' | 'limit' | 'invalid';

export class NzbParseError extends Error {
  readonly kind: NzbParseErrorKind;
  /** 1-based position in the document where the problem was seen; 0 when it is about the whole document. */
  readonly line: number;
  readonly column: number;

  constructor(kind: NzbParseErrorKind, message: string, line = 0, column = 0) {
    super(line > 0 ? `Invalid NZB at line ${line}, column ${column}: ${message}` : `Invalid NZB: ${message}`);
    this.name = 'NzbParseError';
    this.kind = kind;
    this.line = line;
    this.column = column;
  }
}
