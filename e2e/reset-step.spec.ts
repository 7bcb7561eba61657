import { expect, test, type Page } from '@playwright/test';
import { confirmDialog, dialog, expectDesk, openPlayground, openTool, run } from './support';

// Issue 27, part 6: "Reset this step" brings back the state the step began from (the session and
// its leaf, the host settings, the running extension) and keeps the lesson's ticks.

const checkpoint = (page: Page) => page.getByRole('status', { name: 'Checkpoint' });
const codePanel = (page: Page) => page.getByRole('tabpanel', { name: 'Code', exact: true });
const steps = (page: Page) => page.getByRole('list', { name: 'Steps' });

test('after wrong moves, Reset this step puts back the leaf, the settings and the broken version the step began with, and the earlier tick stays', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  await page.getByRole('navigation', { name: 'Lessons' }).getByRole('link', { name: /Break it to see why/ }).click();
  await page.getByRole('button', { name: 'Reset lesson' }).click();
  await expect(page.getByRole('region', { name: /^Step \d+:/ })).toHaveAttribute('aria-busy', 'false');
  await page.getByRole('button', { name: 'Do it for me' }).click();
  await expect(checkpoint(page)).toHaveText('✓ Checkpoint reached.', { timeout: 90_000 });
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByRole('heading', { name: /^Step 2:/ })).toBeVisible();
  // Where step 2 begins: the broken version runs, bean 2 reserved, approval mode yolo.
  await expectDesk(page, 'bean-scarlet', 3, 2);
  const leafBefore = await page.getByRole('status', { name: 'Status line' }).textContent();

  // Wrong moves: the shipped extension back, a reservation, a stricter approval mode.
  await openTool(page, 'Code');
  await codePanel(page).getByRole('button', { name: 'Back to the shipped extension' }).click();
  await expect(codePanel(page)).toContainText('Running: the shipped extension');
  await run(page, '/seeds reserve bean-scarlet 1');
  await expect(dialog(page)).toBeVisible();
  await confirmDialog(page);
  await expectDesk(page, 'bean-scarlet', 2, 3);
  await openTool(page, 'Tool call');
  await page.getByRole('radiogroup', { name: 'Approval mode' }).getByRole('radio', { name: 'always-ask' }).check();
  await expect(page.getByRole('radiogroup', { name: 'Approval mode' }).getByRole('radio', { name: 'always-ask' })).toBeChecked();

  await page.getByRole('button', { name: 'Reset this step' }).click();
  await expect(page.getByRole('region', { name: /^Step \d+:/ })).toHaveAttribute('aria-busy', 'false', { timeout: 90_000 });
  const said = page.getByRole('status', { name: 'Lesson settings' });
  await expect(said).toContainText('"Approval mode" set to yolo');
  await expect(said).toContainText('your edited version runs again');
  await expectDesk(page, 'bean-scarlet', 3, 2);
  await expect(page.getByRole('status', { name: 'Status line' })).toHaveText(leafBefore ?? '');
  await expect(page.getByRole('radiogroup', { name: 'Approval mode' }).getByRole('radio', { name: 'yolo' })).toBeChecked();
  await openTool(page, 'Code');
  await expect(codePanel(page)).toContainText('Running: your edited extension');
  // The tick of step 1 stays; step 2 starts again, not ticked.
  await expect(steps(page).getByRole('listitem').nth(0)).toContainText('(done)');
  await expect(steps(page).getByRole('listitem').nth(1)).toContainText('(not done)');
  await expect(checkpoint(page)).toContainText('Not yet');
});
