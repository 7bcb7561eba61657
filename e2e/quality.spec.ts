import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openPlayground, output, run } from './support';

/** Lesson count and step counts as the page lists them. */
async function lessonShape(page: Page): Promise<number[]> {
  const lessons = page.getByRole('navigation', { name: 'Lessons' }).getByRole('link');
  const counts: number[] = [];
  for (let index = 0; index < (await lessons.count()); index++) {
    const text = (await lessons.nth(index).locator('..').textContent()) ?? '';
    counts.push(Number(/\(\d+\/(\d+)\)/.exec(text)?.[1] ?? 0));
  }
  return counts;
}

for (const theme of ['light', 'dark'] as const) {
  test(`axe finds no violations on each lesson's first and last step (${theme} theme)`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
    await openPlayground(page);
    await page.getByRole('radio', { name: theme }).check();
    const shape = await lessonShape(page);
    expect(shape.length).toBe(6);
    for (const [index, steps] of shape.entries()) {
      for (const step of new Set([1, steps])) {
        await page.goto(`/#/lesson/${index + 1}/step/${step}`);
        await expect(page.getByRole('heading', { name: new RegExp(`^Step ${step}:`) })).toBeVisible();
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), `lesson ${index + 1} step ${step}`).toEqual([]);
      }
    }
  });
}

test('after the first load the playground works with the network off', async ({ page, context }) => {
  await openPlayground(page);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The first load may finish before the worker controls the page; a reload puts it in charge.
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeVisible();
  await run(page, '/seeds query');
  await expect(output(page)).toContainText('basil-genovese: 8 available, 0 reserved');
  await context.setOffline(false);
});

test('the theme switch pins dark or light over the system preference', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openPlayground(page);
  await page.getByRole('radio', { name: 'dark' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.getByRole('radio', { name: 'dark' })).toBeChecked();
  await page.getByRole('radio', { name: 'system' }).check();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
});

test('below 800 px one pane at a time, with a toggle', async ({ page }) => {
  await page.setViewportSize({ width: 600, height: 900 });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: /^Step 1:/ })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Lesson' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeHidden();
  await page.getByRole('button', { name: 'Show the playground' }).click();
  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Lesson' })).toBeHidden();
  await page.getByRole('button', { name: 'Show the lesson' }).click();
  await expect(page.getByRole('complementary', { name: 'Lesson' })).toBeVisible();
});
