import { defineConfig } from '@playwright/test';

// Run through `npm run test:e2e` (scripts/e2e.mjs): it finds or installs Chromium and sets CHROMIUM_PATH.
// E2E_PORT lets two runs share one machine: each gets its own port, build folder and results.
const PORT = Number(process.env.E2E_PORT ?? 4173);
const ALONE = PORT === 4173;
export const E2E_DIST = ALONE ? 'dist' : `dist-e2e-${PORT}`;
process.env.E2E_DIST = E2E_DIST;

export default defineConfig({
  testDir: './e2e',
  outputDir: ALONE ? 'test-results' : `test-results-${PORT}`,
  // The workspace loads each Tools tab on first open; under two workers on two cores a long fault test needs more than 30 s.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  // The JSON report lives outside test-results/, which Playwright empties at the start of every run.
  // scripts/test.mjs reads it for the final "N passed, N failed" line.
  reporter: [['list'], ['json', { outputFile: ALONE ? 'test-results-json/e2e.json' : `test-results-json/e2e-${PORT}.json` }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Two tabs in one test must both keep running at full speed (the two-tab and load specs).
        '--disable-background-timer-throttling',
        '--disable-backgrounding-occluded-windows',
        '--disable-renderer-backgrounding',
      ],
    },
    screenshot: 'only-on-failure',
    // Recording a trace of every test costs about a third of the suite's time on two cores (measured
    // on 18 tests: 100 s with traces against 76 s without, the build included), so traces are asked
    // for: `npm run test:e2e -- --trace retain-on-failure`.
    trace: 'off',
    // The production build registers a service worker that precaches every built file (the 14 MB
    // esbuild.wasm among them) in each test's fresh context: measured on agent-milestone's 9 tests,
    // 35.7 CPU-s with it against 23.6 without (the preview server's share 6.5 → 0.9). It is blocked
    // here, and allowed in the specs about what it does (offline, requests, caches, first load):
    // `test.use({ serviceWorkers: 'allow' })`.
    serviceWorkers: 'block',
  },
  webServer: {
    // Build first, so the tests never run against a stale dist/. E2E_PREBUILT=1: `npm test` has just
    // built it (beside the type check and the unit tests), so the server only previews it.
    command: `${process.env.E2E_PREBUILT === '1' ? '' : `npx vite build --bypass-lock --outDir ../${E2E_DIST} && `}npx vite preview --bypass-lock --outDir ../${E2E_DIST} --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
