import { expect, test } from '@playwright/test';

test('a fresh desk answers /seeds query with 8, 5 and 3 packets available', async ({ page }) => {
  await page.goto('/');
  const desk = page.getByRole('table', { name: 'Seed desk' });
  await expect(desk).toBeVisible();

  const command = page.getByRole('textbox', { name: 'Command' });
  await command.fill('/seeds query');
  await command.press('Enter');

  const output = page.getByRole('list', { name: 'Command output' });
  await expect(output).toContainText('basil-genovese: 8 available, 0 reserved');
  await expect(output).toContainText('bean-scarlet: 5 available, 0 reserved');
  await expect(output).toContainText('marigold-french: 3 available, 0 reserved');
  await expect(output).toContainText(/revision: \S+:root/);

  await expect(desk.getByRole('row', { name: /basil-genovese/ })).toContainText('8');
  await expect(desk.getByRole('row', { name: /bean-scarlet/ })).toContainText('5');
  await expect(desk.getByRole('row', { name: /marigold-french/ })).toContainText('3');
});
