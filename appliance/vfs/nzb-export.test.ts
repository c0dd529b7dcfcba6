import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { buildLayout, parseNzb, type NzbDocument } from '../nzb/index.js';
import { NzbBuilder } from '../../tests/support/nzb/builder.js';
import { tempVfs } from '../../tests/support/vfs/memory.js';
import { exportNzb } from './nzb-export.js';

const t = tempVfs();
after(() => t.close());

/** The facts export must give back: per file, each segment's id, number and bytes. */
const segmentsOf = (doc: NzbDocument) =>
  doc.files.map((f) => [...f.segments].map((s) => ({ id: s.messageId, number: s.number, bytes: s.bytes })));

/** Imports each file of `xml` (whole articles of 1,000 bytes) through the packed store, then exports it again. */
async function roundTrip(job: string, xml: string): Promise<{ before: NzbDocument; after: NzbDocument[] }> {
  const before = parseNzb(xml);
  const files = before.files.map((f, i) => {
    const sizes = new Float64Array(f.segments.length).fill(1000);
    const layout = buildLayout(f, sizes);
    layout.posts = [{ poster: f.poster, date: f.date, subject: f.subject, groups: f.groups }];
    layout.groups = f.groups;
    return { name: `file${i}.bin`, size: layout.size, layout };
  });
  await t.vfs.addJob({ category: 'export', jobName: job, files });
  const after = files.map((f) => parseNzb(exportNzb(t.vfs, `/complete/export/${job}/${f.name}`).xml));
  return { before, after };
}

test('export gives back the NZB’s own message-ids, numbers and bytes from the packed store, odd ids included', async () => {
  const random = (n: number) => Array.from({ length: n }, (_, i) => ((i * 7919 + n) % 36).toString(36)).join('');
  const xml = new NzbBuilder()
    .file((f) => {
      f.subject('"template.mkv" yEnc (1/300)').groups('alt.binaries.test');
      for (let i = 1; i <= 300; i++) f.segment(i, `part${i}of300.AbCdEf123@example.com`, 740_000 + ((i * 37) % 500));
    })
    .file((f) => {
      f.subject('"odd.mkv" yEnc (1/9)').groups('alt.binaries.test', 'alt.binaries.misc');
      f.segment(1, '<part1of9.bracketed@example.com>', 10); // the brackets some indexers write
      f.segment(2, 'part2of9%20percent%3C@example.com', 11);
      f.segment(3, 'pärt3of9.ünïcødé.😀@exämple.com', 12);
      f.segment(4, 'part4of9.dup@example.com', 13);
      f.segment(5, 'part4of9.dup@example.com', 14); // the same id at two numbers
      f.segment(6, 'fits-no-template', 15);
      f.segment(7, `${random(40)}@ngPost.com`, 16);
      f.segment(8, '1700000000.000123.8@poster.local', 17);
      f.segment(9, 'part0009of9.leading.zeros@example.com', 18);
    })
    .file((f) => {
      f.subject('"random.mkv" yEnc (1/200)').groups('alt.binaries.test');
      for (let i = 1; i <= 200; i++) f.segment(i, `${random(32 + (i % 3))}${i}@ngPost.com`, 700_000 + i);
    })
    .toXml();
  const { before, after } = await roundTrip('Odd', xml);
  assert.deepEqual(
    after.map((d) => segmentsOf(d)[0]),
    segmentsOf(before),
  );
  assert.equal(segmentsOf(before)[1]![0]!.id, 'part1of9.bracketed@example.com', 'the parser drops the brackets');
  assert.equal(segmentsOf(after[1]!)[0]!.length, 9, 'both numbers of the duplicated id');
  after.forEach((d, i) => {
    assert.equal(d.files[0]!.subject, before.files[i]!.subject);
    assert.deepEqual(d.files[0]!.groups, before.files[i]!.groups);
  });
});
