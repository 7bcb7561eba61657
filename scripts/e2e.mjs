// npm run test:e2e [-- playwright args]: find (or install) Chromium, then run Playwright with it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './find-chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { path } = ensureChromium(); // exits 1 with what to run when there is no Chromium; sets CHROMIUM_PATH

console.log(`End-to-end tests (Playwright, Chromium at ${path})…`);
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
if (result.error) console.error(`Could not start Playwright: ${result.error.message}`);
process.exit(result.status ?? 1);
