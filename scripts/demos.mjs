// npm run demos [-- playwright args]: find (or install) Chromium, then replay every lesson through
// the page (playwright.demos.config.ts): a trace per lesson, a screenshot per step, an HTML report.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './find-chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { path } = ensureChromium(); // exits 1 with what to run when there is no Chromium; sets CHROMIUM_PATH

console.log(`Lesson demos (Playwright, Chromium at ${path})…`);
const result = spawnSync('npx', ['playwright', 'test', '-c', 'playwright.demos.config.ts', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
if (result.error) console.error(`Could not start Playwright: ${result.error.message}`);
// With E2E_PORT or DEMO_PORT set, both folders carry the port: demo-report-<port>, demo-results-<port>.
console.log('Open the report: npx playwright show-report demo-report');
console.log('Open a lesson: npx playwright show-trace demo-results/<lesson folder>/trace.zip');
process.exit(result.status ?? 1);
