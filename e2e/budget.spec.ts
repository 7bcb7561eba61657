import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { lazyScripts, MAIN_BUDGET, measureBudgets, WORKER_BUDGET, workerScripts } from '../scripts/budget.mjs';

// A first visit as it is, the service worker's registration and precache included (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

// The webServer builds dist/ before any spec runs, so this measures the build under test.
test('bundle budgets: first-screen JavaScript ≤ 70 KiB gzip, the worker ≤ 44 KiB gzip', async ({ page }) => {
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
  await expect(page.getByRole('tablist', { name: 'Tools' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const counted = new Set(budgets.main.map((file) => `/${file.path.slice(dist.length + 1)}`));
  // Lazy chunks (reached only by import()) must exist, or the table did not parse and the check below would be empty.
  const lazy = lazyScripts(dist);
  expect([...lazy].some((script) => script.includes('ToolCallTab'))).toBe(true);
  // What the worker fetches itself (its entry and the chunks it imports) is the worker's, not the page's.
  const ofWorker = workerScripts(dist);
  const isPageScript = (script: string) => !ofWorker.has(script) && !script.includes('workbox') && !script.endsWith('/sw.js');
  for (const script of scripts) {
    if (!lazy.has(script) && isPageScript(script)) expect(counted, script).toContain(script);
  }

  // Each Tools tab's code loads when the tab first opens: before any interaction only the open tab's chunk is here.
  const tabChunks = [...scripts].filter((script) => /\/(ToolCall|Refusals|Agents|Journal|Events|Statechart|Sessions)Tab-/.test(script));
  expect(tabChunks.map((script) => /\/(\w+)Tab-/.exec(script)?.[1])).toEqual(['ToolCall']);

  // Everything the page fetched before any interaction (the measure; reported, see docs/decisions.md).
  const beforeInteraction = [...scripts].filter(isPageScript).reduce((sum, script) => sum + gzipSync(readFileSync(join(dist, script.slice(1)))).length, 0);
  console.log(`budget: all page script fetched by network idle, before any interaction: ${kib(beforeInteraction)} (${scripts.size} scripts)`);
  // The worker's first chunk is budgeted; what it also fetches as it starts is reported beside it.
  const workerStart = [...scripts].filter((script) => ofWorker.has(script)).reduce((sum, script) => sum + gzipSync(readFileSync(join(dist, script.slice(1)))).length, 0);
  console.log(`budget: the worker fetched ${kib(workerStart)} by network idle (its first chunk and what it imports as it starts)`);
});
