import { defineConfig } from '@playwright/test';

// Run through `npm run test:e2e` (scripts/e2e.mjs): it finds or installs Chromium and sets CHROMIUM_PATH.
export default defineConfig({
  testDir: './e2e',
  outputDir: 'test-results',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  // The JSON report lives outside test-results/, which Playwright empties at the start of every run.
  // scripts/test.mjs reads it for the final "N passed, N failed" line.
  reporter: [['list'], ['json', { outputFile: 'test-results-json/e2e.json' }]],
  use: {
    baseURL: 'http://127.0.0.1:4173',
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
    trace: 'retain-on-failure',
  },
  webServer: {
    // Build first, so the tests never run against a stale dist/.
    command: 'npx vite build && npx vite preview --host 127.0.0.1 --port 4173 --strictPort',
    url: 'http://127.0.0.1:4173',
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
