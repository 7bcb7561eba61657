/**
 * The Bun half of `npm run test:host`: the behaviour checks and the real host's side of the
 * differential. Results go to stdout (one line per check) and to host-test/out/real.json for
 * scripts/test-host.mjs, which prints the closing tally.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { behaviourChecks } from './checks';
import { lessonScripts } from './lessonScripts';
import { loadHost } from './omp';
import { oneFileReplays } from './oneFile';
import { realDifferential } from './realScripts';
import { realOwn } from './realOwn';
import { Checks } from './report';
import { loadScripts } from './script';

const OUT = fileURLToPath(new URL('./out', import.meta.url));
const RUNS = `${OUT}/runs`;
rmSync(RUNS, { recursive: true, force: true });
let counter = 0;
const dir = (name: string) => {
  const path = `${RUNS}/${String(++counter).padStart(2, '0')}-${name}`;
  mkdirSync(path, { recursive: true });
  return path;
};

const checks = new Checks();
const only = process.env['HOST_TEST_ONLY'];
await checks.run('load: the built extension/dist/seed-desk.js imports under Bun next to the real host', async () => {
  await loadHost();
});
if (!only || only === 'checks') await behaviourChecks(checks, { dir });
mkdirSync(`${OUT}/diff`, { recursive: true });
if (!only || only === 'diff') {
  const scripts = [...loadScripts(), ...(await lessonScripts())];
  await realDifferential(checks, scripts, `${OUT}/diff`, dir);
  await oneFileReplays(checks, scripts, `${OUT}/diff`, dir);
}
// Own extensions (issue 37): OMP's examples and the template, each alone, and the downloaded template.
if (!only || only === 'own') await realOwn(checks, dir);
writeFileSync(`${OUT}/real.json`, JSON.stringify(checks.results, null, 2));
// The host keeps timers (settings saves, telemetry) alive; the results are written, so leave.
process.exit(checks.results.every((result) => result.ok) ? 0 : 1);
