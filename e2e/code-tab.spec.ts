import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { openPlayground, openTool } from './support';

// The Code tab: the Seed Desk extension's source, highlighted at build time, read-only.
const RACE_LINE = 'const second = judge(readDesk(ctx));';

function codePanel(page: Page) {
  return page.getByRole('tabpanel', { name: 'Code', exact: true });
}

test('the Code tab lists the files, shows one with line numbers, and jumps to a named region', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  await openTool(page, 'Code');
  const panel = codePanel(page);

  const file = panel.getByRole('combobox', { name: 'File' });
  await expect(file).toBeVisible();
  const paths = await file.getByRole('option').allTextContents();
  expect(paths).toEqual(
    expect.arrayContaining(['extension/command.ts', 'extension/deskState.ts', 'extension/seed-desk.ts', 'extension/tool.ts', 'domain/desk.ts', 'domain/reconstruct.ts', 'domain/command/parse.ts', 'domain/tool/seedDeskTool.ts', 'domain/snapshot.ts', 'domain/refusal.ts']),
  );
  expect(paths.filter((path) => path.includes('.test.'))).toEqual([]);

  await file.selectOption('extension/command.ts');
  const code = panel.getByRole('figure', { name: 'extension/command.ts' });
  await expect(code).toContainText(RACE_LINE);

  // Each line shows its number in a gutter that is drawn, not text: it is neither read nor copied with the code.
  const line = code.locator('[data-line]').filter({ hasText: RACE_LINE });
  await expect(line).toHaveCount(1);
  const number = await line.getAttribute('data-line');
  const onDisk = readFileSync('extension/command.ts', 'utf8');
  expect(Number(number)).toBe(onDisk.split('\n').findIndex((text) => text.includes(RACE_LINE)) + 1);
  expect(await line.evaluate((element) => getComputedStyle(element, '::before').content)).toBe(`"${number}"`);
  expect(await code.locator('[data-line="1"]').evaluate((element) => getComputedStyle(element, '::before').content)).toBe('"1"');
  const selected = await code.locator('pre code').evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    const text = selection?.toString() ?? '';
    selection?.removeAllRanges();
    return text;
  });
  expect(selected.replace(/\n$/, '')).toBe(onDisk.replace(/\n$/, ''));

  // The region list jumps to a region: its lines are outlined, labelled and scrolled into view.
  const regions = panel.getByRole('list', { name: 'Regions' });
  await expect(regions.getByRole('button')).toHaveCount(8);
  await regions.getByRole('button', { name: 're-read-after-dialog', exact: true }).click();
  const outlined = code.getByRole('group', { name: /^Region re-read-after-dialog, lines \d+–\d+: the dialog was an await/ });
  await expect(outlined).toBeVisible();
  await expect(outlined).toContainText(RACE_LINE);
  await expect(outlined).toHaveCSS('outline-style', 'solid');
  await expect(outlined.getByText(RACE_LINE)).toBeInViewport();
  await expect(regions.getByRole('button', { name: 're-read-after-dialog', exact: true })).toHaveAttribute('aria-current', 'true');

  // A region in another file opens that file.
  await regions.getByRole('button', { name: 'validate-every-snapshot', exact: true }).click();
  await expect(file).toHaveValue('domain/reconstruct.ts');
  await expect(panel.getByRole('figure', { name: 'domain/reconstruct.ts' }).getByRole('group', { name: /^Region validate-every-snapshot/ })).toBeInViewport();

  // The page itself never scrolls.
  const scroll = await page.evaluate(() => ({ height: document.documentElement.scrollHeight, inner: window.innerHeight }));
  expect(scroll.height).toBeLessThanOrEqual(scroll.inner);
});

test('a lesson step about the code opens the Code tab at its region; a step with its own tab offers it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  // Lesson 1, step 4: the race. It needs no tab of its own, so the Code tab opens on the re-read.
  await page.goto('/#/lesson/1/step/4');
  await expect(page.getByRole('heading', { name: /^Step 4: Something changes while you decide/ })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Code', exact: true })).toHaveAttribute('aria-selected', 'true');
  const outlined = codePanel(page).getByRole('group', { name: /^Region re-read-after-dialog/ });
  await expect(outlined).toHaveCSS('outline-style', 'solid');
  await expect(outlined.getByText(RACE_LINE)).toBeInViewport();

  // Lesson 6, step 7: the approval. Its controls live in "Tool call", which stays open; the code is one click away.
  await page.goto('/#/lesson/6/step/7');
  await expect(page.getByRole('heading', { name: /^Step 7: The tool still acts/ })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Tool call', exact: true })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'Show the code: tool-approval' }).click();
  await expect(page.getByRole('tab', { name: 'Code', exact: true })).toHaveAttribute('aria-selected', 'true');
  const approval = codePanel(page).getByRole('figure', { name: 'extension/tool.ts' }).getByRole('group', { name: /^Region tool-approval/ });
  await expect(approval).toBeInViewport();
  await expect(approval).toContainText('approval: SEED_DESK_APPROVAL_TIER');
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe finds no violations in the Code tab at a region (${theme} theme)`, async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openPlayground(page);
    await page.getByRole('radio', { name: theme }).check();
    await openTool(page, 'Code');
    await codePanel(page).getByRole('list', { name: 'Regions' }).getByRole('button', { name: 're-read-after-dialog', exact: true }).click();
    await expect(codePanel(page).getByRole('group', { name: /^Region re-read-after-dialog/ })).toBeVisible();
    const results = await new AxeBuilder({ page }).include('#region-tools').analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}
