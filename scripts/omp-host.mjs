// The real OMP host (Bun and @oh-my-pi/pi-coding-agent) in host-test/.omp, installed from its own
// committed lock into its own ignored node_modules, so the playground's `npm ci` stays small.
// Used by `npm run test:host` and by `npm run bench` (the import part opens files in the host).
// `npm install --no-save`, not `npm ci`: the host's natives for other platforms are not in the
// registry here, so the lock lacks those optional packages and `npm ci` refuses it as out of sync;
// --no-save keeps the lock as committed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const OMP = join(root, 'host-test', '.omp');
export const BUN = join(OMP, 'node_modules', '.bin', 'bun');
const STAMP = join(OMP, 'node_modules', '.installed-from-lock');

function lockHash() {
  return createHash('sha256').update(readFileSync(join(OMP, 'package-lock.json'))).digest('hex');
}

/**
 * Installs the host unless the installed tree came from this very lock. Never throws: a failed
 * install comes back as `error`, a sentence naming what failed.
 */
export function ensureHost() {
  const wanted = lockHash();
  if (existsSync(BUN) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === wanted) {
    return { installed: false, ms: 0, error: null };
  }
  console.log('Installing the real host into host-test/.omp (bun 1.4.5, @oh-my-pi/pi-coding-agent 18.2.3; about 1.5 min the first time)…');
  const start = performance.now();
  const result = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: OMP, stdio: 'inherit' });
  const ms = performance.now() - start;
  const status = result.status ?? 1;
  if (status !== 0 || !existsSync(BUN)) {
    return { installed: false, ms, error: `The host could not be installed into host-test/.omp (npm install exited with ${status}${result.error ? `: ${result.error.message}` : ''}).` };
  }
  writeFileSync(STAMP, wanted);
  return { installed: true, ms, error: null };
}
