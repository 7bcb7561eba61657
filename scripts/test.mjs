// npm test: the type check, the unit tests (Vitest) and the production builds the browser stages
// need, side by side; then the end-to-end tests (Playwright) even if the unit tests failed; then the
// lesson demos (Playwright, one test per lesson); then one closing line "N passed, N failed" counted
// from the three JSON reports, after a summary of load, faults, hostile programs and fuzz counts.
//
// `npm test -- --host` (what CI runs) also runs `npm run test:host` beside the end-to-end stage,
// whose tests wait on a browser most of the time: the real OMP under Bun uses the idle core.
// Why the stages run side by side, and what each saved: docs/decisions.md ("CI under 15 minutes").
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { summarize } from './testSummary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const UNIT_REPORT = 'test-results-json/unit.json';
const E2E_REPORT = 'test-results-json/e2e.json'; // written by the json reporter in playwright.config.ts
const DEMOS_REPORT = 'test-results-json/demos.json'; // written by the json reporter in playwright.demos.config.ts
const withHost = process.argv.slice(2).includes('--host');

// The build folders playwright.config.ts and e2e/base-path.spec.ts use for this port.
const port = process.env.E2E_PORT && process.env.E2E_PORT !== '4173' ? process.env.E2E_PORT : null;
const e2eDist = port ? `dist-e2e-${port}` : 'dist';
const baseDist = port ? `dist-base-${port}` : 'dist-base';

const seconds = (ms) => `${Math.round(ms / 1000)} s`;
const timings = [];

/**
 * Runs one stage. `live`: its output goes straight to the terminal (one stage at a time);
 * otherwise it is kept and printed whole, under its title, when the stage ends, so two stages
 * running side by side never mix their lines.
 */
function stage(title, command, args, { live = false, later = null, env = process.env } = {}) {
  const started = performance.now();
  // A live stage's script prints its own header (e2e.mjs and demos.mjs name the Chromium they use).
  if (live) console.log('');
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    if (!live) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    let done = false;
    const finish = (code, error) => {
      if (done) return; // 'error' may be followed by 'close'
      done = true;
      const ms = performance.now() - started;
      timings.push(`${title} ${seconds(ms)}`);
      const print = () => {
        if (!live) {
          console.log(`\n${title}…`);
          process.stdout.write(Buffer.concat(chunks).toString());
        }
        if (error) console.error(`Could not start ${command}: ${error.message}`);
        console.log(`(${title}: ${seconds(ms)}, exit code ${code})`);
      };
      // `later`: a list the output waits in, for a stage that ends while another one prints live.
      if (later) later.push(print);
      else print();
      resolve(code);
    };
    child.on('error', (error) => finish(1, error));
    child.on('close', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}

function readReport(file) {
  try {
    return JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
  } catch {
    return null;
  }
}

/** Counts from one runner; `notes` explain every failure that is not a failed test. */
function tally(name, file, exitCode, countsOf) {
  const report = readReport(file);
  if (!report) {
    return { passed: 0, failed: 1, notes: [`${name} wrote no report (${file}; exit code ${exitCode}): counting it as 1 failed.`] };
  }
  const { passed, failed, skipped } = countsOf(report);
  const notes = [];
  let extra = 0;
  if (skipped > 0) {
    notes.push(`${name}: ${skipped} skipped test(s) counted as failed: skipped tests are not allowed.`);
    extra += skipped;
  }
  if (exitCode !== 0 && failed + extra === 0) {
    notes.push(`${name} exited with code ${exitCode} but reported no failed test (see its output above): counting 1 failed.`);
    extra += 1;
  }
  return { passed, failed: failed + extra, notes };
}

const whole = performance.now();
for (const file of [UNIT_REPORT, E2E_REPORT, DEMOS_REPORT]) rmSync(new URL(`../${file}`, import.meta.url), { force: true });

// 1. Side by side (Vitest runs one worker on two cores; svelte-check and tsc one thread each):
// the types (svelte-check for the page, tsc for tests, specs, benchmarks) must be clean; the unit
// tests; the production build the browser stages preview, then the sub-path build base-path.spec.ts
// checks (--bypass-lock: Vite 8 refuses two builds of one project at a time; each has its own folder).
const build = ['vite', 'build', '--bypass-lock', '--logLevel', 'warn'];
const [checkExit, unitExit, buildExit] = await Promise.all([
  stage('Type check (svelte-check and tsc)', 'npm', ['run', '--silent', 'check']),
  stage('Unit tests (Vitest)', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${UNIT_REPORT}`]),
  stage('Production builds (the app, and the app under /seed-desk/)', 'sh', [
    '-c',
    `npx ${build.join(' ')} --outDir ../${e2eDist} && npx ${build.join(' ')} --base=/seed-desk/ --outDir ../${baseDist}`,
  ]),
]);

// 2. The end-to-end tests on those builds (E2E_PREBUILT: the webServer only previews dist/, and
// base-path.spec.ts serves dist-base/ as it is); beside them, with --host, the real OMP.
// e2e.mjs finds or installs Chromium and prints its own "End-to-end tests (Playwright, Chromium at …)…" header.
const prebuilt = { ...process.env, ...(buildExit === 0 ? { E2E_PREBUILT: '1' } : {}) };
if (buildExit !== 0) console.log('\nThe production builds failed: the end-to-end stage builds again, and says why.');
const waiting = [];
const host = withHost ? stage('The extension in the real OMP host (npm run test:host)', 'npm', ['run', '--silent', 'test:host'], { later: waiting }) : Promise.resolve(0);
const e2eExit = await stage('End-to-end tests', process.execPath, ['scripts/e2e.mjs'], { live: true, env: prebuilt });

// 3. The demos (their own "Lesson demos (Playwright, Chromium at …)…" header and default port).
// As a stage of the suite they check the lessons; the traces they exist to show are for
// `npm run demos`, and recording them costs time. They preview the build the e2e stage used.
const demosExit = await stage('Lesson demos', process.execPath, ['scripts/demos.mjs', '--trace', 'off'], { live: true, env: { ...process.env, DEMO_PREBUILT: e2eDist } });
const hostExit = await host;
for (const print of waiting) print();

/** A Playwright JSON report's counts: a flaky test passed on retry. */
const playwrightCounts = ({ stats }) => ({
  passed: stats.expected + stats.flaky,
  failed: stats.unexpected,
  skipped: stats.skipped,
});

const results = [
  tally('Vitest', UNIT_REPORT, unitExit, (r) => ({
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numTotalTests - r.numPassedTests - r.numFailedTests, // skipped + todo
  })),
  tally('Playwright', E2E_REPORT, e2eExit, playwrightCounts),
  tally('Playwright demos', DEMOS_REPORT, demosExit, playwrightCounts),
];
// A type error counts as one failure: the suite is not green while the types are not.
if (checkExit !== 0) results.push({ passed: 0, failed: 1, notes: ['The type check failed (npm run check): counted as 1 failed.'] });
// The real host's own checks are counted in its own closing line above; a failure there is one here.
if (hostExit !== 0) results.push({ passed: 0, failed: 1, notes: [`npm run test:host failed (exit code ${hostExit}; its summary is above): counted as 1 failed.`] });
const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0);

console.log('');
// Load, faults, hostile programs and fuzz counts, read from the same reports (scripts/testSummary.mjs).
const summary = summarize({ unit: readReport(UNIT_REPORT), e2e: readReport(E2E_REPORT), demos: readReport(DEMOS_REPORT) });
for (const line of summary.lines) console.log(line);
console.log('');
console.log(`Time: ${timings.join('; ')}; whole run ${seconds(performance.now() - whole)}.`);
for (const note of results.flatMap((r) => r.notes)) console.log(note);
if (passed + failed === 0) console.log('No tests ran: there has to be at least one.');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
