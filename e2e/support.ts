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

export async function journalLineCount(page: Page): Promise<number> {
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

export async function confirmReservation(page: Page, line: string): Promise<void> {
  await run(page, line);
  await expect(dialog(page)).toBeVisible();
  await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(dialog(page)).toBeHidden();
}
