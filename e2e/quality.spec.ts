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

const LESSON_COUNT = 10;

// One test per lesson: each step is analysed whole in the light theme, then in the dark theme for
// colour contrast, the one rule a theme changes (the document is the same; only its colours
// differ). A full second analysis per theme cost a loaded machine about 2.5 minutes per run.
for (let lesson = 1; lesson <= LESSON_COUNT; lesson++) {
  test(`axe finds no violations on lesson ${lesson}'s first and last step (light theme, and dark theme's contrast)`, async ({ page }) => {
    // Four analyses take 20–40 s on 2 busy cores; the default 30 s left no room.
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    await openPlayground(page);
    const shape = await lessonShape(page);
    expect(shape.length).toBe(LESSON_COUNT);
    const steps = shape[lesson - 1] ?? 0;
    expect(steps).toBeGreaterThan(0);
    for (const step of new Set([1, steps])) {
      await page.goto(`/#/lesson/${lesson}/step/${step}`);
      await expect(page.getByRole('heading', { name: new RegExp(`^Step ${step}:`) })).toBeVisible();
      await page.getByRole('radio', { name: 'light' }).check();
      const light = await new AxeBuilder({ page }).analyze();
      expect(light.violations.map(described), `lesson ${lesson} step ${step}, light`).toEqual([]);
      await page.getByRole('radio', { name: 'dark' }).check();
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      const dark = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
      expect(dark.passes.length, 'the contrast rule ran').toBeGreaterThan(0);
      expect(dark.violations.map(described), `lesson ${lesson} step ${step}, dark`).toEqual([]);
    }
  });
}

function described(violation: { id: string; nodes: { target: unknown[] }[] }): string {
  return `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`;
}

test.describe('the service worker', () => {
  // Offline is the service worker's work: it runs here (playwright.config.ts blocks it elsewhere).
  test.use({ serviceWorkers: 'allow' });

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
