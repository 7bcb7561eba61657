import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openTool, output, run } from './support';

// The service worker under the sub-path is checked here (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * Issue 22, "hosted anywhere": a build made with `--base=/seed-desk/` (a project page on a static
 * host) works entirely under that sub-path. The spec builds into its own folder and serves it with
 * a strict static server: files only under /seed-desk/, a 404 for everything else, so a URL built
 * from the site root (a chunk, the worker, the extension, the manifest, an icon, the service
 * worker) fails visibly instead of being answered by a fallback.
 *
 * Port 4193 (E2E_BASE_PORT moves it); beside another run (E2E_PORT set) the server takes any free
 * port and the build its own folder, so two runs never share either.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BASE = '/seed-desk/';
const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
const ALONE = E2E_PORT === 4173;
const OUT_DIR = ALONE ? 'dist-base' : `dist-base-${E2E_PORT}`;
const PORT = Number(process.env.E2E_BASE_PORT ?? (ALONE ? 4193 : 0));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

let server: Server;
let origin = '';
/** Every path the server answered with 404: a request the base-path build should never make. */
const notFound: string[] = [];

/** A static host in miniature: the build at BASE, nothing anywhere else, no SPA fallback. */
function serve(dist: string): Server {
  return createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split(/[?#]/)[0] ?? '/');
    const relative = path.startsWith(BASE) ? path.slice(BASE.length) || 'index.html' : null;
    const file = relative === null ? null : normalize(join(dist, relative));
    if (!file || !file.startsWith(dist + sep) || !existsSync(file) || !statSync(file).isFile()) {
      notFound.push(path);
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Not found: ${path}\n`);
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
  });
}

test.beforeAll(async () => {
  // A production build of its own (about 5–10 s); --bypass-lock: the suite's own preview is running.
  // E2E_PREBUILT=1: `npm test` has just made this build, beside the type check and the unit tests.
  test.setTimeout(120_000);
  if (process.env.E2E_PREBUILT !== '1') await promisify(execFile)('npx', ['vite', 'build', '--bypass-lock', `--base=${BASE}`, '--outDir', `../${OUT_DIR}`, '--logLevel', 'warn'], { cwd: ROOT });
  server = serve(join(ROOT, OUT_DIR));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(PORT, '127.0.0.1', resolve);
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  if (!server) return;
  server.closeAllConnections(); // keep-alive sockets would hold close() open
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

// Jekyll (GitHub Pages publishing from a branch) drops files whose names start with `_`, and the
// Code tab's chunk is `assets/_virtual_extension-source-….js`: web/public/.nojekyll turns Jekyll off.
test('the build carries .nojekyll, so GitHub Pages publishing from a branch keeps its _-prefixed chunks', () => {
  expect(existsSync(join(ROOT, OUT_DIR, '.nojekyll'))).toBe(true);
});

test('built with --base=/seed-desk/, the page, its worker, the extension and the offline service worker all live under /seed-desk/', async ({ page, context }) => {
  test.setTimeout(60_000);
  const failed: string[] = [];
  const fetched: string[] = [];
  // Responses the browser reports for this context; the server's own 404 list (notFound) covers any it leaves out.
  context.on('response', (response) => {
    fetched.push(response.url());
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${origin}${BASE}`);
  const desk = page.getByRole('table', { name: 'Seed desk' });
  await expect(desk).toBeVisible();

  // The worker answers: a command goes through it and back.
  await run(page, '/seeds query');
  await expect(output(page)).toContainText('basil-genovese: 8 available, 0 reserved');

  // A lazy chunk of the page (the Sessions tab), and the extension it offers.
  await openTool(page, 'Sessions');
  const link = page.getByRole('region', { name: 'Take it home: the Seed Desk extension for OMP' }).getByRole('link', { name: 'Download seed-desk.js' });
  const href = await link.getAttribute('href');
  expect(href).toBe(`${BASE}seed-desk.js`);
  const extension = await page.request.get(new URL(href ?? '', page.url()).href);
  expect(extension.status()).toBe(200);
  expect(extension.headers()['content-type']).toMatch(/javascript/);
  // esbuild writes the default export as `export { seedDesk as default }`, not `export default`.
  expect(await extension.text()).toMatch(/\bexport\s+default\b|\bexport\s*\{[^}]*\bas default\b[^}]*\}/);

  // The worker's own lazy chunk: importing a session file loads the import parser.
  const jsonl = [
    JSON.stringify({ type: 'session', version: 3, id: '0b7e4d2c-1f7a-4b5e-9c3d-2a1b0c9d8e7f', timestamp: '2026-12-01T10:00:00.000Z', cwd: '/import' }),
    JSON.stringify({ type: 'message', id: 'aa000001', parentId: null, timestamp: '2026-12-01T10:00:01.000Z', message: { role: 'user', content: 'imported hello' } }),
  ].join('\n');
  await page.getByLabel('Import session').setInputFiles({ name: 'one.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(`${jsonl}\n`) });
  await expect(page.getByRole('region', { name: 'Import report' })).toContainText('Imported 1 entries');

  // The manifest and every icon it and the page name resolve under the base, as an installing browser reads them.
  const manifestUrl = await page.locator('link[rel="manifest"]').evaluate((element) => (element as HTMLLinkElement).href);
  expect(manifestUrl).toBe(`${origin}${BASE}manifest.webmanifest`);
  const manifest = (await (await page.request.get(manifestUrl)).json()) as { start_url: string; scope: string; icons: { src: string }[] };
  expect(new URL(manifest.start_url, manifestUrl).href).toBe(`${origin}${BASE}`);
  expect(new URL(manifest.scope, manifestUrl).href).toBe(`${origin}${BASE}`);
  const iconLinks = await page.locator('link[rel~="icon"], link[rel="apple-touch-icon"]').evaluateAll((elements) => elements.map((element) => (element as HTMLLinkElement).href));
  const icons = [...manifest.icons.map((icon) => new URL(icon.src, manifestUrl).href), ...iconLinks];
  expect(icons.length).toBeGreaterThan(2);
  for (const icon of icons) {
    expect(icon.startsWith(`${origin}${BASE}`), icon).toBe(true);
    expect((await page.request.get(icon)).status(), icon).toBe(200);
  }

  // The service worker: registered from the base, scoped to it, installed (every precached file fetched).
  // Polled with the server's 404s beside it: a registration from the site root fails there, and says so.
  const registered = () => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).map((registration) => registration.scope));
  await expect.poll(async () => ({ scopes: await registered(), notFound }), { timeout: 15_000 }).toEqual({ scopes: [`${origin}${BASE}`], notFound: [] });
  expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)).toBe(`${origin}${BASE}`);

  // Offline under the sub-path: once the service worker controls the page, the network can go.
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toBe(`${origin}${BASE}sw.js`);
  await context.setOffline(true);
  await page.reload();
  await expect(desk).toBeVisible();
  await run(page, '/seeds query');
  await expect(output(page)).toContainText('bean-scarlet: 5 available, 0 reserved');
  await context.setOffline(false);

  // Everything came from under the base, and nothing 404'd: not in the browser, not at the server.
  expect(fetched).toEqual(expect.arrayContaining([`${origin}${BASE}sw.js`]));
  expect(fetched.filter((url) => url.startsWith(origin) && !url.startsWith(`${origin}${BASE}`))).toEqual([]);
  expect(failed).toEqual([]);
  expect(notFound).toEqual([]);
  expect(errors).toEqual([]);
});
