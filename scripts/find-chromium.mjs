// Finds a Chromium for Playwright, installing one when it is missing and we are allowed to.
// Where Playwright keeps its own browser is Playwright's business: we ask it (chromium.executablePath())
// instead of copying its cache layout, which changes between releases.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NO_CHROMIUM_MESSAGE =
  'No Chromium found: install one with `sudo apt-get install -y chromium` (Debian/Ubuntu) ' +
  'or `npx playwright install chromium`, or point CHROMIUM_PATH at a Chromium binary.';

const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

function isExecutableFile(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The Chromium Playwright would download and launch, or null when Playwright is not installed.
 * playwright-core is CommonJS, so a synchronous require keeps findChromium synchronous; the path it
 * names may not exist yet (Playwright answers where the browser would be), so callers check it.
 */
function askPlaywright() {
  try {
    return createRequire(import.meta.url)('playwright-core').chromium.executablePath() || null;
  } catch {
    return null;
  }
}

/**
 * The first usable Chromium, as `{ path, source }`, or null when there is none: CHROMIUM_PATH, then
 * Debian's package, then Playwright's own download.
 * Throws when CHROMIUM_PATH is set but names no executable file: that is a mistake to fix, not to paper over.
 */
export function findChromium({ env = process.env, exists = isExecutableFile, playwrightPath = askPlaywright } = {}) {
  if (env.CHROMIUM_PATH) {
    if (exists(env.CHROMIUM_PATH)) return { path: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' };
    throw new Error(
      `CHROMIUM_PATH is set to "${env.CHROMIUM_PATH}", but no executable file is there: ` +
        'point it at a Chromium binary, or unset it to use the one found on this machine.',
    );
  }
  for (const path of SYSTEM_PATHS) if (exists(path)) return { path, source: 'system' };
  const downloaded = playwrightPath();
  if (downloaded && exists(downloaded)) return { path: downloaded, source: 'playwright' };
  return null;
}

function runInherited(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return result.status === 0;
}

/**
 * Finds Chromium or installs one, sets process.env.CHROMIUM_PATH (so child processes get it) and returns
 * `{ path, source }`. When that fails it prints one sentence saying what to do and exits 1.
 * Every side effect can be swapped out for tests.
 */
export function ensureChromium({
  env = process.env,
  find = (e) => findChromium({ env: e }),
  isDebianRoot = () => existsSync('/etc/debian_version') && process.getuid?.() === 0,
  run = runInherited,
  log = (line) => console.log(line),
  fail = (line) => {
    console.error(line);
    process.exit(1);
  },
} = {}) {
  let found;
  try {
    found = find(env);
    if (!found) {
      if (isDebianRoot()) {
        log('No Chromium found: installing the Debian package (apt-get install -y chromium)…');
        if (run('apt-get', ['update'])) run('apt-get', ['install', '-y', 'chromium']);
      } else {
        log('No Chromium found: trying `npx playwright install chromium`…');
        run('npx', ['playwright', 'install', 'chromium']);
      }
      found = find(env);
    }
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  if (!found) return fail(NO_CHROMIUM_MESSAGE);
  env.CHROMIUM_PATH = found.path;
  return found;
}

// `node scripts/find-chromium.mjs` prints the Chromium the runners would use (installing one if needed).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { path, source } = ensureChromium();
  console.log(`${path} (${source})`);
}
