/**
 * A fluent NZB writer for tests. It writes XML by hand (not through appliance/nzb/export.ts) so a test that parses
 * its output checks the parser against an independent writer.
 */

export interface BuiltSegment {
  number: number;
  bytes?: number;
  messageId: string;
}

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export class NzbFileBuilder {
  private _poster = 'tester <tester@example.com>';
  private _date = 1_700_000_000;
  private _subject = '"file.bin" yEnc (1/1)';
  private _groups = ['alt.binaries.test'];
  private readonly _segments: BuiltSegment[] = [];

  poster(value: string): this {
    this._poster = value;
    return this;
  }
  date(value: number): this {
    this._date = value;
    return this;
  }
  subject(value: string): this {
    this._subject = value;
    return this;
  }
  groups(...values: string[]): this {
    this._groups = values;
    return this;
  }
  segment(number: number, messageId: string, bytes?: number): this {
    this._segments.push({ number, messageId, bytes });
    return this;
  }
  /** `count` segments numbered from 1 with ids `<prefix>.<n>@spool.test` and the given encoded size each. */
  segments(count: number, bytes: number, prefix = 'seg'): this {
    for (let n = 1; n <= count; n++) this.segment(n, `${prefix}.${n}@spool.test`, bytes);
    return this;
  }

  toXml(): string {
    const segs = this._segments.map((s) => {
      const bytes = s.bytes === undefined ? '' : ` bytes="${s.bytes}"`;
      return `<segment${bytes} number="${s.number}">${esc(s.messageId)}</segment>`;
    });
    const groups = this._groups.map((g) => `<group>${esc(g)}</group>`).join('');
    return (
      `<file poster="${esc(this._poster)}" date="${this._date}" subject="${esc(this._subject)}">` +
      `<groups>${groups}</groups><segments>${segs.join('\n')}</segments></file>`
    );
  }
}

export class NzbBuilder {
  private readonly metas: [string, string][] = [];
  private readonly files: NzbFileBuilder[] = [];
  private doctype = true;

  meta(type: string, value: string): this {
    this.metas.push([type, value]);
    return this;
  }
  /** Adds a file configured by `configure`. */
  file(configure: (file: NzbFileBuilder) => void): this {
    const file = new NzbFileBuilder();
    configure(file);
    this.files.push(file);
    return this;
  }
  withoutDoctype(): this {
    this.doctype = false;
    return this;
  }

  toXml(): string {
    const head = this.metas.length
      ? `<head>${this.metas.map(([t, v]) => `<meta type="${esc(t)}">${esc(v)}</meta>`).join('')}</head>\n`
      : '';
    const doctype = this.doctype
      ? '<!DOCTYPE nzb PUBLIC "-//newzBin//DTD NZB 1.1//EN" "http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd">\n'
      : '';
    return (
      `<?xml version="1.0" encoding="UTF-8"?>\n${doctype}<nzb xmlns="http://www.newzbin.com/DTD/2003/nzb">\n` +
      `${head}${this.files.map((f) => f.toXml()).join('\n')}\n</nzb>\n`
    );
  }

  toBuffer(): Buffer {
    return Buffer.from(this.toXml(), 'utf8');
  }
}
