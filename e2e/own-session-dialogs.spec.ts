import { expect, test, type Page } from '@playwright/test';
import { openPlayground, openTool, output, run, tree } from './support';
import { codeEditor } from './typing';

// Issue 37: OMP's confirm-destructive example, unchanged, asks before New and before a branch from
// a session event's handler. The page shows those dialogs as a command's: the change waits for the
// learner's answer, "no" leaves the session as it was with the extension's words, "yes" makes it.

const codePanel = (page: Page) => page.getByRole('tabpanel', { name: 'Code', exact: true });
const sessionRows = (page: Page) => page.getByRole('list', { name: 'Session list' }).getByRole('listitem');
const lastLine = (page: Page) => output(page).getByRole('listitem').last();

test('confirm-destructive asks before New and before a fork from an entry; "no" keeps the session and says so, "yes" makes the change', async ({ page }) => {
  // A compile that loads esbuild, then the dialogs' own chunk: on two loaded cores, most of a minute.
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  await page.getByRole('navigation', { name: 'Lessons' }).getByRole('button', { name: 'Your own extension' }).click();
  await codePanel(page).getByRole('combobox', { name: 'Start from' }).selectOption({ label: 'OMP example: confirm-destructive (session_before_*)' });
  await codePanel(page).getByRole('button', { name: 'Start over from this' }).click();
  await expect(codeEditor(page, 'my-extension.ts')).toContainText('Confirm Destructive Actions Hook');
  const runButton = codePanel(page).getByRole('button', { name: 'Run my version' });
  await runButton.click();
  await expect(runButton).toBeEnabled({ timeout: 30_000 });
  await expect(codePanel(page).getByRole('status', { name: 'Your extension' })).toContainText('Your extension runs now');

  await run(page, 'plan the beds');
  // The first line queues behind what "Run my version" left in the worker (the new session's
  // graph, pushed after its answer): with test:host and a second Playwright worker on two cores,
  // CI measured this answer past the default 5 s.
  await expect(lastLine(page)).toContainText('Added your message', { timeout: 20_000 });
  await run(page, 'water them');
  await expect(lastLine(page)).toContainText('Added your message');
  await openTool(page, 'Sessions');
  // Seed Desk's session and the one the own extension runs on.
  const sessions = 2;
  await expect(sessionRows(page)).toHaveCount(sessions);

  // New: the extension's confirm, shown by the page; Cancel keeps this session.
  await page.getByRole('button', { name: 'New session', exact: true }).click();
  const clear = page.getByRole('dialog', { name: 'Clear session?' });
  // The dialogs' views load with the first request (a chunk of their own): on two loaded cores, seconds.
  await expect(clear).toBeVisible({ timeout: 20_000 });
  await expect(clear).toContainText('This will delete all messages in the current session.');
  // Seed Desk's race is not part of this dialog: Seed Desk is not loaded.
  await expect(clear.getByRole('button', { name: /^Meanwhile/ })).toHaveCount(0);
  await clear.getByRole('button', { name: 'Cancel' }).click();
  await expect(clear).toBeHidden();
  await expect(lastLine(page)).toContainText('Clear cancelled');
  await expect(lastLine(page)).toContainText('The extension cancelled the new session');
  await expect(sessionRows(page)).toHaveCount(sessions);
  await expect(tree(page).getByRole('treeitem').filter({ hasText: 'water them' })).toHaveCount(1);

  // A fork from the first message is OMP's /branch from the message after it: the extension asks which way.
  await tree(page).getByRole('treeitem').filter({ hasText: 'plan the beds' }).first().click();
  await page.getByRole('button', { name: 'Fork from here' }).click();
  const branch = page.getByRole('dialog', { name: /^Branch from entry [0-9a-f]{8}\?$/ });
  await expect(branch).toBeVisible();
  await branch.getByRole('button', { name: 'No, stay in current session' }).click();
  await expect(branch).toBeHidden();
  await expect(lastLine(page)).toContainText('Branch cancelled');
  await expect(sessionRows(page)).toHaveCount(sessions);

  await tree(page).getByRole('treeitem').filter({ hasText: 'plan the beds' }).first().click();
  await page.getByRole('button', { name: 'Fork from here' }).click();
  await branch.getByRole('button', { name: 'Yes, create branch' }).click();
  await expect(branch).toBeHidden();
  await expect(sessionRows(page)).toHaveCount(sessions + 1);
  // The new session holds the path to the first message only.
  await expect(tree(page).getByRole('treeitem').filter({ hasText: 'plan the beds' })).toHaveCount(1);
  await expect(tree(page).getByRole('treeitem').filter({ hasText: 'water them' })).toHaveCount(0);

  // New again, confirmed this time: a session of its own.
  await page.getByRole('button', { name: 'New session', exact: true }).click();
  await expect(clear).toBeVisible();
  await clear.getByRole('button', { name: 'Confirm' }).click();
  await expect(clear).toBeHidden();
  await expect(sessionRows(page)).toHaveCount(sessions + 2);
  await expect(tree(page).getByRole('treeitem').filter({ hasText: 'plan the beds' })).toHaveCount(0);
});
