import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openPlayground, output, run } from './support';

/** Step counts of every lesson, as the lesson list shows them ("(done/total)"). */
async function lessonShape(page: Page): Promise<number[]> {
  const lessons = page.getByRole('navigation', { name: 'Lessons' }).getByRole('link');
  const counts: number[] = [];
  for (let index = 0; index < (await lessons.count()); index++) {
    const text = (await lessons.nth(index).locator('..').textContent()) ?? '';
    counts.push(Number(/\(\d+\/(\d+)\)/.exec(text)?.[1] ?? 0));
  }
  return counts;
}

const LESSON_COUNT = 9;

// One test per lesson and theme: each runs two full-page analyses, so a slow machine meets the
// per-test timeout with room to spare instead of one test carrying all twelve.
for (const theme of ['light', 'dark'] as const) {
  for (let lesson = 1; lesson <= LESSON_COUNT; lesson++) {
    test(`axe finds no violations on lesson ${lesson}'s first and last step (${theme} theme)`, async ({ page }) => {
      // Two full-page analyses take 15–25 s on 2 busy cores; the default 30 s left no room.
      test.setTimeout(90_000);
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      await openPlayground(page);
      await page.getByRole('radio', { name: theme }).check();
      const shape = await lessonShape(page);
      expect(shape.length).toBe(LESSON_COUNT);
      const steps = shape[lesson - 1] ?? 0;
      expect(steps).toBeGreaterThan(0);
      for (const step of new Set([1, steps])) {
        await page.goto(`/#/lesson/${lesson}/step/${step}`);
        await expect(page.getByRole('heading', { name: new RegExp(`^Step ${step}:`) })).toBeVisible();
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), `lesson ${lesson} step ${step}`).toEqual([]);
      }
    });
  }
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

test('below 800 px one region at a time, switched from the bar', async ({ page }) => {
  await page.setViewportSize({ width: 600, height: 900 });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: /^Step 1:/ })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Lesson' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeHidden();
  const bar = page.getByRole('navigation', { name: 'Workspace regions' });
  await bar.getByRole('button', { name: 'Desk' }).click();
  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Lesson' })).toBeHidden();
  await bar.getByRole('button', { name: 'Lesson' }).click();
  await expect(page.getByRole('complementary', { name: 'Lesson' })).toBeVisible();
});
