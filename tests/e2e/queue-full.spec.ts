import { expect, signIn, ADMIN, createAdmin, test, useSpool } from './support/fixtures.js';

// import.max_queued_items: 1. No news server is configured, so the first NZB stays unfinished (its import waits
// for a retry after the outage) and the queue stays full for the second upload.
const spool = useSpool({ config: { import: { max_queued_items: 1 } } });

test.beforeAll(async () => {
  await createAdmin(spool());
});

const nzb = (name: string, tag: string) => ({
  name,
  mimeType: 'application/x-nzb',
  buffer: Buffer.from(
    `<nzb><file subject="${tag}"><segments><segment bytes="10" number="1">${tag}@x</segment></segments></file></nzb>`,
  ),
});

test('a full queue: the upload card says why the NZB was refused', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.getByRole('link', { name: 'Queue' }).click();
  const uploads = page.getByRole('list', { name: 'Uploads' });
  await page
    .getByLabel('NZB files', { exact: true })
    .setInputFiles([nzb('First.Show.S01E01.nzb', 'first'), nzb('Second.Show.S01E02.nzb', 'second')]);
  await expect(uploads.getByRole('listitem').filter({ hasText: 'First.Show.S01E01.nzb' })).toContainText(/success/);
  await expect(uploads.getByRole('listitem').filter({ hasText: 'Second.Show.S01E02.nzb' })).toContainText(
    'The Spool queue is full: 1 item is waiting or importing and the limit (import.max_queued_items) is 1; try again later',
  );
});
