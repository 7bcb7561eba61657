import { expect, test } from '@playwright/test';
import { confirmReservation, dialog, expectDesk, journalLineCount, openPlayground, output, run, openTool } from './support';

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
});

test('cancelling a reservation appends nothing; repeating it and confirming reserves 2 basil', async ({ page }) => {
  const linesBefore = await journalLineCount(page);
  await run(page, '/seeds reserve basil-genovese 2');
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page)).toContainText('basil-genovese');
  await dialog(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog(page)).toBeHidden();
  await expect(output(page)).toContainText('Cancelled: nothing was changed');
  expect(await journalLineCount(page)).toBe(linesBefore);
  await expectDesk(page, 'basil-genovese', 8, 0);

  await confirmReservation(page, '/seeds reserve basil-genovese 2');
  await run(page, '/seeds query');
  await expect(output(page)).toContainText('basil-genovese: 6 available, 2 reserved');
  await expectDesk(page, 'basil-genovese', 6, 2);
  await expect.poll(() => journalLineCount(page)).toBe(linesBefore + 1);
});

test('the exercise: cancelling a release of 1 leaves basil at 2 reserved', async ({ page }) => {
  await confirmReservation(page, '/seeds reserve basil-genovese 2');
  await run(page, '/seeds release basil-genovese 1');
  await expect(dialog(page)).toBeVisible();
  await dialog(page).getByRole('button', { name: 'Cancel' }).click();
  await run(page, '/seeds query');
  await expect(output(page).getByText('basil-genovese: 6 available, 2 reserved').last()).toBeVisible();
  await expectDesk(page, 'basil-genovese', 6, 2);
});

test('the race: a change while the dialog waits makes the confirmation stale, and bean stays at 0', async ({ page }) => {
  // The dialog is modal: the journal's tab is opened before it, to be read while it waits.
  await openTool(page, 'Journal');
  await run(page, '/seeds reserve bean-scarlet 1');
  await expect(dialog(page)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Confirmation machine' })).toContainText('Confirmation state: open');

  // The page is not frozen: another action, on another seed, lands while the dialog is open.
  await dialog(page).getByRole('button', { name: 'Meanwhile: reserve 1 marigold-french' }).click();
  await expectDesk(page, 'marigold-french', 2, 1);
  await expectDesk(page, 'basil-genovese', 8, 0);
  const linesAfterMeanwhile = await journalLineCount(page);

  await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(output(page)).toContainText('Refused (stale-revision)');
  await expect(page.getByRole('group', { name: 'Confirmation machine' })).toContainText('Confirmation state: refused');
  await expectDesk(page, 'bean-scarlet', 5, 0);
  expect(await journalLineCount(page)).toBe(linesAfterMeanwhile);
});

test('the race through the tree: moving the leaf while the dialog waits is refused as stale too', async ({ page }) => {
  await confirmReservation(page, '/seeds reserve basil-genovese 2');
  await run(page, '/seeds reserve bean-scarlet 1');
  await expect(dialog(page)).toBeVisible();
  await dialog(page).getByRole('button', { name: 'Meanwhile: move to the previous entry' }).click();
  await expectDesk(page, 'basil-genovese', 8, 0);
  await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(output(page)).toContainText('Refused (stale-revision)');
  await expectDesk(page, 'bean-scarlet', 5, 0);
});

test('ordinary conversation never changes the revision', async ({ page }) => {
  await confirmReservation(page, '/seeds reserve basil-genovese 1');
  const revision = await page.getByLabel('Revision', { exact: true }).textContent();
  await run(page, 'What should I plant first?');
  await expect(output(page)).toContainText('The revision stays');
  await expect(page.getByRole('list', { name: 'Active branch' })).toContainText('What should I plant first?');
  await expect(page.getByLabel('Revision', { exact: true })).toHaveText(revision ?? '');
});

test('headless: reserve and agent on are refused with ui-required, no dialog, nothing appended; query still works', async ({ page }) => {
  await page.getByRole('checkbox', { name: 'Interactive UI' }).uncheck();
  const linesBefore = await journalLineCount(page);
  await run(page, '/seeds reserve basil-genovese 1');
  await expect(output(page)).toContainText('Refused (ui-required)');
  await run(page, '/seeds agent on');
  await expect(output(page).getByText('Refused (ui-required)')).toHaveCount(2);
  await expect(dialog(page)).toHaveCount(0);
  expect(await journalLineCount(page)).toBe(linesBefore);
  await run(page, '/seeds query');
  await expect(output(page)).toContainText('basil-genovese: 8 available, 0 reserved');
});

test('a reload keeps the reservations and the revision', async ({ page }) => {
  await confirmReservation(page, '/seeds reserve marigold-french 2');
  const revision = await page.getByLabel('Revision', { exact: true }).textContent();
  await page.reload();
  await expectDesk(page, 'marigold-french', 1, 2);
  await expect(page.getByLabel('Revision', { exact: true })).toHaveText(revision ?? '');
});

test('the status line and the event log follow each change', async ({ page }) => {
  await confirmReservation(page, '/seeds reserve bean-scarlet 2');
  await expect(page.getByRole('status', { name: 'Status line' })).toContainText('holding 2 bean-scarlet');
  await openTool(page, 'Events');
  await expect(page.getByRole('list', { name: 'Event log' })).toContainText('workbook:seed-desk:changed');
  await openTool(page, 'Events');
  await expect(page.getByRole('list', { name: 'Event log' })).toContainText('"bean-scarlet":2');
});

test('a failed storage transaction appends nothing, is shown, and stops writes until reopen', async ({ page }) => {
  const linesBefore = await journalLineCount(page);
  await page.getByText('Fault injection').click();
  await page.getByRole('button', { name: 'Fail the next write' }).click();
  await confirmReservation(page, '/seeds reserve basil-genovese 1');
  await expect(page.getByRole('alert').filter({ hasText: 'Writes are stopped' })).toBeVisible();
  await expectDesk(page, 'basil-genovese', 8, 0);
  expect(await journalLineCount(page)).toBe(linesBefore);

  // Latched: the next write is refused without touching storage; queries still work.
  await confirmReservation(page, '/seeds reserve basil-genovese 1');
  await expect(output(page)).toContainText('Writes are stopped after a storage failure');
  await run(page, '/seeds query');
  await expect(output(page)).toContainText('basil-genovese: 8 available, 0 reserved');

  await page.getByRole('button', { name: 'Reopen session' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Writes are stopped' })).toHaveCount(0);
  await confirmReservation(page, '/seeds reserve basil-genovese 1');
  await expectDesk(page, 'basil-genovese', 7, 1);
  await expect.poll(() => journalLineCount(page)).toBe(linesBefore + 1);
});

test('the journal filter keeps only the seed desk lines', async ({ page }) => {
  await confirmReservation(page, '/seeds reserve basil-genovese 2');
  await run(page, 'a message between the reservations');
  await confirmReservation(page, '/seeds reserve bean-scarlet 1');
  await openTool(page, 'Journal');
  await page.getByRole('textbox', { name: 'Filter journal' }).fill('"customType":"seed-desk-state-v1"');
  const lines = page.getByRole('list', { name: 'Journal lines' }).getByRole('listitem');
  await expect(lines).toHaveCount(2);
  await expect(lines.first()).toContainText('"basil-genovese":2');
});
