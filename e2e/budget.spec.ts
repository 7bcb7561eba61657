import { expect, test } from '@playwright/test';
import { lazyScripts, MAIN_BUDGET, measureBudgets, WORKER_BUDGET } from '../scripts/budget.mjs';

// The webServer builds dist/ before any spec runs, so this measures the build under test.
test('bundle budgets: first-screen JavaScript ≤ 70 KiB gzip, the worker ≤ 40 KiB gzip', async ({ page }) => {
  const dist = process.env.E2E_DIST ?? 'dist';
  const budgets = measureBudgets(dist);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(`budget: main ${kib(budgets.mainTotal)} of ${kib(MAIN_BUDGET)} (${budgets.main.map((file) => file.path).join(', ')}); worker ${kib(budgets.workerTotal)} of ${kib(WORKER_BUDGET)}`);
  expect(budgets.main.length).toBeGreaterThan(0);
  expect(budgets.workers.length).toBeGreaterThan(0);
  expect(budgets.mainTotal).toBeLessThanOrEqual(MAIN_BUDGET);
  expect(budgets.workerTotal).toBeLessThanOrEqual(WORKER_BUDGET);

  // What the first screen really fetches is what the budget counted (no extra eager chunk).
  const scripts = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeVisible();
  const counted = new Set(budgets.main.map((file) => `/${file.path.slice(dist.length + 1)}`));
  // Lazy chunks (reached only by import()) must exist, or the table did not parse and the check below would be empty.
  const lazy = lazyScripts(dist);
  expect([...lazy].some((script) => script.includes('LowerPanels'))).toBe(true);
  for (const script of scripts) {
    if (!lazy.has(script) && !script.includes('worker-') && !script.includes('workbox') && !script.endsWith('/sw.js')) expect(counted, script).toContain(script);
  }
});
