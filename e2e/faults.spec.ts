import { expect, test, type Page } from '@playwright/test';
import { confirmReservation, dialog, expectDesk, journalLineCount, openPlayground, output, run, openTool } from './support';

const stopped = (page: Page) => page.getByRole('alert').filter({ hasText: 'Writes are stopped' });

async function injectFault(page: Page, button: string): Promise<void> {
  await page.getByText('Fault injection').click();
  await page.getByRole('button', { name: button }).click();
}

test('a quota error on commit appends nothing, says so, and stops writes until reopen', { tag: '@fault' }, async ({ page }) => {
  await openPlayground(page);
  const lines = await journalLineCount(page);
  await injectFault(page, 'Exceed the quota on the next write');
  await confirmReservation(page, '/seeds reserve bean-scarlet 2');
  await expect(stopped(page)).toContainText('quota');
  await expectDesk(page, 'bean-scarlet', 5, 0);
  expect(await journalLineCount(page)).toBe(lines);
  await run(page, 'a message while writes are stopped');
  await expect(output(page)).toContainText('Writes are stopped');
  await page.getByRole('button', { name: 'Reopen session' }).click();
  await expect(stopped(page)).toHaveCount(0);
  await confirmReservation(page, '/seeds reserve bean-scarlet 2');
  await expectDesk(page, 'bean-scarlet', 3, 2);
});

test('the database closed in the middle of a commit: nothing half-written, writes refused until reopen', { tag: '@fault' }, async ({ page }) => {
  await openPlayground(page);
  await confirmReservation(page, '/seeds reserve basil-genovese 1');
  const lines = await journalLineCount(page);
  await injectFault(page, 'Close the database on the next write');
  await confirmReservation(page, '/seeds reserve basil-genovese 1');
  await expect(stopped(page)).toContainText('closed');
  await expectDesk(page, 'basil-genovese', 7, 1);
  await page.getByRole('button', { name: 'Reopen session' }).click();
  await expect(stopped(page)).toHaveCount(0);
  await expect.poll(() => journalLineCount(page)).toBe(lines);
  await expectDesk(page, 'basil-genovese', 7, 1);
});

test('another tab opening a newer schema version: this tab lets go, says so, and refuses writes', { tag: '@fault' }, async ({ page }) => {
  await openPlayground(page);
  await confirmReservation(page, '/seeds reserve marigold-french 1');
  // One above the database's own version, whatever this build's DB_VERSION (web/src/worker/storeSchema.ts) is.
  const upgraded = await page.evaluate(
    async () => {
      const current = (await indexedDB.databases()).find((database) => database.name === 'seed-desk-playground')?.version;
      if (current === undefined) return 'the playground has no database';
      return new Promise<string>((resolve) => {
        const request = indexedDB.open('seed-desk-playground', current + 1);
        request.onupgradeneeded = () => request.result.createObjectStore('from-a-newer-version');
        request.onsuccess = () => {
          request.result.close();
          resolve('upgraded');
        };
        request.onerror = () => resolve(`error: ${request.error?.name}`);
      });
    },
  );
  expect(upgraded).toBe('upgraded');
  await expect(stopped(page)).toContainText('upgrading or deleting');
  await expectDesk(page, 'marigold-french', 2, 1);
  await run(page, '/seeds reserve marigold-french 1');
  await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(output(page)).toContainText('Writes are stopped');
  // This tab's code is older than the database now: a reopen cannot fix that, a reload can.
  await page.getByRole('button', { name: 'Reopen session' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Reload this tab' })).toBeVisible();
  await expectDesk(page, 'marigold-french', 2, 1);
});

test('another tab deleting the database: this tab keeps its view, refuses writes, and a new session starts clean', { tag: '@fault' }, async ({ page }) => {
  await openPlayground(page);
  await confirmReservation(page, '/seeds reserve bean-scarlet 1');
  const deleted = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const request = indexedDB.deleteDatabase('seed-desk-playground');
        request.onsuccess = () => resolve('deleted');
        request.onerror = () => resolve(`error: ${request.error?.name}`);
      }),
  );
  expect(deleted).toBe('deleted');
  await expect(stopped(page)).toBeVisible();
  await expectDesk(page, 'bean-scarlet', 4, 1);
  await page.getByRole('button', { name: 'Reopen session' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'no longer in the database' }).first()).toBeVisible();
  await openTool(page, 'Sessions');
  await page.getByRole('button', { name: 'New session', exact: true }).click();
  await expectDesk(page, 'bean-scarlet', 5, 0);
  await confirmReservation(page, '/seeds reserve bean-scarlet 1');
  await expectDesk(page, 'bean-scarlet', 4, 1);
});

test('a reload while a confirmation is open loses the dialog, not the journal: nothing is appended', { tag: '@fault' }, async ({ page }) => {
  await openPlayground(page);
  await confirmReservation(page, '/seeds reserve basil-genovese 2');
  const lines = await journalLineCount(page);
  await run(page, '/seeds reserve basil-genovese 3');
  await expect(dialog(page)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeVisible();
  await expect(dialog(page)).toHaveCount(0);
  await expectDesk(page, 'basil-genovese', 6, 2);
  await expect.poll(() => journalLineCount(page)).toBe(lines);
});
