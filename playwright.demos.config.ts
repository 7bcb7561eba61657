import { defineConfig } from '@playwright/test';
import e2e from './playwright.config';

// `npm run demos` (scripts/demos.mjs finds or installs Chromium and sets CHROMIUM_PATH): every
// lesson replayed through the page, one trace per lesson and one screenshot per step.
// The demos have their own default port, so they never meet an e2e run on 4173; E2E_PORT (or
// DEMO_PORT) moves them, with their build folder and results, as it does for the e2e suite.
const PORT = Number(process.env.DEMO_PORT ?? process.env.E2E_PORT ?? 4177);
const ALONE = PORT === 4177;
const DIST = `dist-e2e-${PORT}`;

export default defineConfig({
  testDir: './e2e/demos',
  // Not `*.spec.ts`: playwright.config.ts (testDir ./e2e) would run them a second time.
  testMatch: '**/*.demo.ts',
  outputDir: ALONE ? 'demo-results' : `demo-results-${PORT}`,
  // A lesson is one test: up to nine steps of a few actions each.
  timeout: 240_000,
  expect: { timeout: 10_000 },
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  reporter: [
    ['list'],
    // Outside demo-results/, which Playwright empties at the start of every run.
    ['html', { outputFolder: ALONE ? 'demo-report' : `demo-report-${PORT}`, open: 'never' }],
    // scripts/test.mjs reads it for the final "N passed, N failed" line.
    ['json', { outputFile: ALONE ? 'test-results-json/demos.json' : `test-results-json/demos-${PORT}.json` }],
  ],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    // One list of Chromium flags for both runs; the path comes from CHROMIUM_PATH there too.
    launchOptions: e2e.use?.launchOptions ?? {},
    // The window issue 13 designs the workspace for.
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'on',
    // As in playwright.config.ts: no lesson is about the service worker, whose precache (every built
    // file, the 14 MB esbuild.wasm among them) would otherwise be fetched again in each demo's context.
    serviceWorkers: 'block',
  },
  webServer: {
    // --bypass-lock: Vite 8 refuses a second build or preview of one project at a time, but each run
    // here has its own build folder and port, so an e2e run beside the demos is safe.
    // DEMO_PREBUILT names a build folder another stage just made (npm test passes the e2e suite's
    // dist/): the demos preview it instead of building the same sources again.
    command: process.env.DEMO_PREBUILT
      ? `npx vite preview --bypass-lock --outDir ../${process.env.DEMO_PREBUILT} --host 127.0.0.1 --port ${PORT} --strictPort`
      : `npx vite build --bypass-lock --outDir ../${DIST} && npx vite preview --bypass-lock --outDir ../${DIST} --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
