// npm run test:host: the Seed Desk extension inside the real OMP host.
//  1. On first run (or when host-test/.omp/package-lock.json changed) install Bun and the host into
//     host-test/.omp/ from its own committed lock (scripts/omp-host.mjs, shared with the bench).
//  2. Build extension/dist/seed-desk.js.
//  3. Playground side of the differential (Node): the action scripts (host-test/scripts.json) and
//     every step of every lesson's "Do it for me" solution (host-test/lessonScripts.ts) on the
//     worker host; "Break it"'s edited versions through the worker's own compile-and-swap path.
//  4. Under Bun: the behaviour checks and the real side of the differential (host-test/real.ts).
//  5. Compare the two sides and the session files each wrote (Node).
//  6. Own extensions (issue 37): OMP's example extensions and the template, each alone, through one
//     script in both hosts (host-test/ownScripts.ts), and the template's downloaded module in OMP.
// `npm run test:host -- own` runs step 6 alone (after 1 and 2).
// Ends with one line "N passed, N failed"; exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeExtension } from './build-extension.mjs';
import { BUN, ensureHost, OMP } from './omp-host.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(root, 'host-test', 'out');
const TSX = join(root, 'node_modules', '.bin', 'tsx');

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) console.error(`Could not start ${command}: ${result.error.message}`);
  return result.status ?? 1;
}

/** Bytes under a folder (what `du` would say, without depending on it). */
function sizeOf(path) {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (stat.isSymbolicLink() || !stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

function readResults(file, stage) {
  try {
    return JSON.parse(readFileSync(join(OUT, file), 'utf8'));
  } catch {
    return [{ name: `${stage} wrote no results (${file})`, ok: false, detail: 'see its output above', ms: 0 }];
  }
}

const total = performance.now();
const install = ensureHost();
if (install.error !== null) {
  console.error(`${install.error} Nothing was checked.`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const hostSize = sizeOf(join(OMP, 'node_modules'));
const bunVersion = spawnSync(BUN, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(`Host: ${install.installed ? `installed in ${seconds(install.ms)}` : 'already installed'}; host-test/.omp/node_modules is ${(hostSize / 1e6).toFixed(0)} MB; Bun ${bunVersion}.`);

const ownOnly = process.argv[2] === 'own';
const runStart = performance.now();
rmSync(OUT, { recursive: true, force: true });
const built = await writeExtension();
console.log(`Built extension/dist/seed-desk.js (${(built.bytes / 1024).toFixed(1)} KiB).`);
// The "Break it" lesson's prepared edits, one bundle per step (host-test/out/variants/<step>.js),
// which the real host loads where the page runs its edited version.
if (!ownOnly && run(TSX, ['scripts/break-it-variants.mjs', join(OUT, 'variants')]) !== 0) console.error('The "Break it" variants could not be built; the break-it lesson\'s replay will say so.');

console.log('\nPlayground side (Node, worker host on fake-indexeddb)…');
const playgroundExit = run(TSX, ['host-test/playground.ts', ownOnly ? 'run-own' : 'run']);

console.log('\nReal host (Bun): behaviour checks and the real side of the differential…');
// A home of its own: the host keeps logs, caches and its agent dir under HOME and
// PI_CODING_AGENT_DIR, and the discovery check installs the extension there.
const home = join(OUT, 'home');
const realExit = run(BUN, ['host-test/real.ts'], { env: { ...process.env, HOME: home, PI_CODING_AGENT_DIR: join(home, '.omp', 'agent'), ...(ownOnly ? { HOST_TEST_ONLY: 'own' } : {}) } });

console.log('\nComparing the playground and the real host (Node)…');
const compareExit = run(TSX, ['host-test/playground.ts', ownOnly ? 'compare-own' : 'compare']);

const results = [...readResults('real.json', 'The Bun run'), ...(ownOnly ? [] : readResults('compare.json', 'The comparison')), ...readResults('own-compare.json', 'The own-extension comparison')];
if (playgroundExit !== 0) results.push({ name: 'the playground side of the differential ran', ok: false, detail: `exit code ${playgroundExit}`, ms: 0 });
// A crash after some checks passed still fails the run, even if no check line says so.
if (realExit !== 0 && results.every((result) => result.ok)) results.push({ name: 'the Bun run exited cleanly', ok: false, detail: `exit code ${realExit}`, ms: 0 });
if (compareExit !== 0 && results.every((result) => result.ok)) results.push({ name: 'the comparison exited cleanly', ok: false, detail: `exit code ${compareExit}`, ms: 0 });

const passed = results.filter((result) => result.ok).length;
const failed = results.length - passed;
console.log('\nSummary');
for (const result of results) console.log(`  ${result.ok ? 'PASS' : 'FAIL'}  ${result.name}`);
console.log(`\nInstall: ${install.installed ? seconds(install.ms) : 'skipped (already installed)'}; host size ${(hostSize / 1e6).toFixed(0)} MB. Run: ${seconds(performance.now() - runStart)}. Total: ${seconds(performance.now() - total)}.`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
