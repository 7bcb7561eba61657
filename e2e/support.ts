import { expect, type Page } from '@playwright/test';

/** Helpers that act as a learner does: through the command line, buttons and visible text. */
export async function openPlayground(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeVisible();
}

export async function run(page: Page, line: string): Promise<void> {
  const command = page.getByRole('textbox', { name: 'Command' });
  await command.fill(line);
  await command.press('Enter');
}

export function output(page: Page) {
  return page.getByRole('list', { name: 'Command output' });
}

export function dialog(page: Page) {
  return page.getByRole('dialog');
}

/** The journal panel's line count, read once the panel has caught up with the desk (aria-busy false). */
export async function journalLineCount(page: Page): Promise<number> {
  await openTool(page, 'Journal');
  await expect(page.getByRole('region', { name: 'Journal', exact: true })).toHaveAttribute('aria-busy', 'false');
  const text = await page.getByLabel('Journal line count').textContent();
  const match = /(\d+) lines/.exec(text ?? '');
  if (!match) throw new Error(`No line count in "${text}"`);
  return Number(match[1]);
}

export function deskRow(page: Page, id: string) {
  return page.getByRole('table', { name: 'Seed desk' }).getByRole('row', { name: new RegExp(id) });
}

/** Reserved count as the desk table shows it (third cell: id, available, reserved, packets). */
export async function expectDesk(page: Page, id: string, available: number, reserved: number): Promise<void> {
  const cells = deskRow(page, id).getByRole('cell');
  await expect(cells.nth(0)).toHaveText(String(available));
  await expect(cells.nth(1)).toHaveText(String(reserved));
}

/**
 * Presses Confirm and waits until the confirmation machine has settled and the dialog has gone: the
 * machine's state says the commit's answer has arrived, so a test never reads the revision of the
 * moment before the commit.
 */
export async function confirmDialog(page: Page): Promise<void> {
  await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
  await settled(page);
}

/**
 * Confirms with the keyboard, as the dialog invites (it opens with focus on Confirm). For a page
 * behind another: Chromium draws such a tab about twice a second, and a click waits for frames to
 * see its target hold still (measured: 1–2 s per click in the two-tab load test), a key press does not.
 */
export async function confirmDialogByKeyboard(page: Page): Promise<void> {
  await expect(dialog(page).getByRole('button', { name: 'Confirm', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await settled(page);
}

async function settled(page: Page): Promise<void> {
  // A tab behind another draws about twice a second: give a settled dialog room to show it.
  await expect(page.getByRole('group', { name: 'Confirmation machine' })).toContainText(/Confirmation state: (committed|refused|failed)/, { timeout: 15_000 });
  await expect(dialog(page)).toBeHidden();
}

/** Types a change, waits for its dialog and confirms it (by click unless `confirm` says otherwise). */
export async function confirmReservation(page: Page, line: string, confirm: (page: Page) => Promise<void> = confirmDialog): Promise<void> {
  await run(page, line);
  await expect(dialog(page)).toBeVisible();
  await confirm(page);
}

export async function grantAgent(page: Page): Promise<void> {
  await run(page, '/seeds agent on');
  await expect(dialog(page)).toContainText('seed_desk act');
  await confirmDialog(page);
  await expect(page.getByRole('status', { name: 'Status line' })).toContainText('agent on');
}

/** Types arguments into the tool panel and calls seed_desk, as the learner playing the model does. */
export async function callTool(page: Page, args: Record<string, unknown> | string): Promise<void> {
  await openTool(page, 'Tool call');
  await page.getByRole('textbox', { name: 'Tool arguments' }).fill(typeof args === 'string' ? args : JSON.stringify(args));
  await page.getByRole('button', { name: 'Call seed_desk' }).click();
}

export function toolText(page: Page) {
  return page.getByRole('region', { name: 'Text the model sees' });
}

export function toolDetails(page: Page) {
  return page.getByRole('region', { name: 'Structured details' });
}

export async function latestRevision(page: Page): Promise<string> {
  const text = (await toolDetails(page).textContent()) ?? '';
  const match = /"revision": "([^"]+)"/.exec(text);
  if (!match?.[1]) throw new Error(`No revision in details: ${text}`);
  return match[1];
}

export function tree(page: Page) {
  return page.getByRole('tree', { name: 'Session tree' });
}

/** Selects a tree item by a text it shows and branches from it, as a learner clicking does. */
export async function branchFromItem(page: Page, text: string | RegExp): Promise<void> {
  await tree(page).getByRole('treeitem').filter({ hasText: text }).first().click();
  await page.getByRole('button', { name: 'Branch from here' }).click();
}

export async function revisionText(page: Page): Promise<string> {
  return (await page.getByLabel('Revision', { exact: true }).textContent()) ?? '';
}

/** Opens a tab of the Tools tablist; its panel loads on first open. */
export async function openTool(page: Page, name: string): Promise<void> {
  // The Tools region loads its own chunk after the first paint: wait for the tab rather than
  // assume it is there (a count taken too early once skipped the click and failed the test later).
  const tab = page.getByRole('tablist', { name: 'Tools' }).getByRole('tab', { name, exact: true });
  await expect(tab).toBeVisible();
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}
