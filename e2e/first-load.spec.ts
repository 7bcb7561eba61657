import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';

// A first visit as it is, the service worker's registration and precache included (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * The first load is clean: no console error, no failed request, and every static file in
 * web/public/ served as it is — in the production build and on the dev server `npm start` runs.
 */

const STATIC_FILES = [
  { path: '/favicon.svg', type: 'image/svg+xml' },
  { path: '/icon-192.png', type: 'image/png' },
  { path: '/icon-512.png', type: 'image/png' },
  { path: '/icon-maskable-512.png', type: 'image/png' },
  { path: '/apple-touch-icon.png', type: 'image/png' },
  { path: '/manifest.webmanifest', type: 'manifest' },
];

/** Console errors, uncaught exceptions and HTTP failures seen while `load` runs and the desk shows. */
async function problemsOnFirstLoad(page: Page, url: string, deskTimeout?: number): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} (${request.failure()?.errorText})`));
  await page.goto(url);
  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeVisible(deskTimeout === undefined ? undefined : { timeout: deskTimeout });
  await page.waitForLoadState('networkidle');
  return problems;
}

async function expectStaticFiles(page: Page, origin: string): Promise<void> {
  for (const file of STATIC_FILES) {
    const response = await page.request.get(new URL(file.path, origin).href);
    expect(response.status(), file.path).toBe(200);
    expect(response.headers()['content-type'] ?? '', file.path).toContain(file.type);
  }
  const manifest: unknown = await (await page.request.get(new URL('/manifest.webmanifest', origin).href)).json();
  expect(manifest).toMatchObject({ name: 'Seed Desk Playground', icons: expect.arrayContaining([expect.objectContaining({ sizes: '512x512' })]) });
}

test('the production build loads with zero console errors and serves its icons and manifest', async ({ page, baseURL }) => {
  const origin = baseURL ?? 'http://127.0.0.1:4173';
  expect(await problemsOnFirstLoad(page, origin)).toEqual([]);
  // The page names its icon and manifest, so the browser never asks for a missing /favicon.ico.
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  await expectStaticFiles(page, origin);
});

test.describe('the dev server', () => {
  let server: ChildProcess | undefined;
  const port = Number(process.env.E2E_PORT ?? 4173) + 1000;
  const origin = `http://127.0.0.1:${port}`;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    const root = fileURLToPath(new URL('..', import.meta.url));
    server = spawn('npx', ['vite', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: root, stdio: 'ignore', detached: true });
    await expect.poll(async () => fetch(origin).then((r) => r.status, () => 0), { timeout: 60_000 }).toBe(200);
  });

  test.afterAll(() => {
    if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  });

  test('npm start serves a first load with zero console errors and no 404', async ({ page }) => {
    test.setTimeout(90_000);
    // A fresh dev server compiles each of the worker's modules on its first request: under the
    // suite's load the desk can take longer than the production build's 5 s to appear.
    expect(await problemsOnFirstLoad(page, origin, 45_000)).toEqual([]);
    await expectStaticFiles(page, origin);
  });
});
