import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

// System, Backups (docs/backups.md "Where backups go, and when"): the schedule and retention edited in the console.
// The next runs come from the server's own cron parser; each refusal is shown under its field; a reload shows what
// was saved.
const spool = useSpool();

test.beforeAll(async () => {
  await createAdmin(spool());
});

test('System: set the backup schedule, see its next runs, a bad cron and a negative count refused', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/config/system');
  const form = page.getByRole('form', { name: 'Backup schedule' });
  const schedule = form.getByLabel('Schedule');
  await expect(schedule).toHaveValue('0 3 * * *');

  await schedule.fill('15 4 * * *');
  const runs = form.getByRole('list', { name: 'Next runs' }).getByRole('listitem');
  await expect(runs).toHaveCount(3);
  for (const run of await runs.all()) await expect(run).toContainText('4:15:00');
  await form.getByLabel('Keep for (days)').fill('14');
  await form.getByRole('button', { name: 'Save schedule' }).click();
  await expect(page.getByText('Backup schedule saved')).toBeVisible();
  // The card's line says the schedule the server now runs, and when it next runs.
  await expect(page.getByText(/Schedule: 15 4 \* \* \*, next/)).toBeVisible();

  // While typing, croner's own refusal stands under the field and no run is shown.
  await schedule.fill('61 4 * * *');
  await expect(form.getByRole('list', { name: 'Next runs' })).toHaveCount(0);
  await expect(form.locator('.field__error')).toHaveCount(1);
  await form.getByLabel('Backups kept').fill('-1');
  await form.getByRole('button', { name: 'Save schedule' }).click();
  await expect(page.getByText('Update Failed')).toBeVisible();
  await expect(
    form.getByText('Must be a cron expression like 0 3 * * * (minute hour day month weekday), or off'),
  ).toBeVisible();
  await expect(form.getByText('Must be between 0 and 1000')).toBeVisible();
  const saved = (await (await page.request.get('/api/config')).json()) as {
    data: { backups: { schedule: string; keep_count: number; keep_days: number } };
  };
  expect(saved.data.backups).toEqual({ schedule: '15 4 * * *', keep_count: 7, keep_days: 14 });

  await page.reload();
  await expect(schedule).toHaveValue('15 4 * * *');
  await expect(form.getByLabel('Backups kept')).toHaveValue('7');
  await expect(form.getByLabel('Keep for (days)')).toHaveValue('14');
  await expect(runs).toHaveCount(3);
});
