// Finds a Chromium for Playwright, installing one when it is missing and we are allowed to.
// Only Node built-ins: this runs before anything else is known to work.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NO_CHROMIUM_MESSAGE =
  'No Chromium found: install one with `sudo apt-get install -y chromium` (Debian/Ubuntu) ' +
  'or `npx playwright install chromium`, or point CHROMIUM_PATH at a Chromium binary.';

const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** Executables inside one browser folder of Playwright's cache, by folder prefix. */
const CACHE_LAYOUTS = [
  { prefix: 'chromium-', files: ['chrome-linux64/chrome', 'chrome-linux-arm64/chrome', 'chrome-linux/chrome'] },
  {
    prefix: 'chromium_headless_shell-',
    files: [
      'chrome-headless-shell-linux64/chrome-headless-shell',
      'chrome-headless-shell-linux-arm64/chrome-headless-shell',
      'chrome-linux64/headless_shell',
      'chrome-linux/headless_shell',
    ],
  },
];

function isExecutableFile(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function listDir(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Where Playwright keeps its browsers (same rules as playwright-core's registry, Linux only). */
export function playwrightCacheDir(env = process.env, home = homedir()) {
  const configured = env.PLAYWRIGHT_BROWSERS_PATH;
  if (configured === '0') return fileURLToPath(new URL('../node_modules/playwright-core/.local-browsers', import.meta.url));
  if (configured) return resolve(configured);
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'ms-playwright');
}

/**
 * The first usable Chromium, as `{ path, source }`, or null when there is none.
 * Throws when CHROMIUM_PATH is set but names no executable file: that is a mistake to fix, not to paper over.
 */
export function findChromium({ env = process.env, exists = isExecutableFile, readdir = listDir, home = homedir() } = {}) {
  if (env.CHROMIUM_PATH) {
    if (exists(env.CHROMIUM_PATH)) return { path: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' };
    throw new Error(
      `CHROMIUM_PATH is set to "${env.CHROMIUM_PATH}", but no executable file is there: ` +
        'point it at a Chromium binary, or unset it to use the one found on this machine.',
    );
  }
  for (const path of SYSTEM_PATHS) if (exists(path)) return { path, source: 'system' };

  const cache = playwrightCacheDir(env, home);
  const entries = readdir(cache);
  for (const { prefix, files } of CACHE_LAYOUTS) {
    const revision = (name) => Number(name.slice(prefix.length)) || 0;
    const dirs = entries.filter((name) => name.startsWith(prefix)).sort((a, b) => revision(b) - revision(a));
    for (const dir of dirs) {
      for (const file of files) {
        const path = join(cache, dir, file);
        if (exists(path)) return { path, source: 'playwright-cache' };
      }
    }
  }
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
