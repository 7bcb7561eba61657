// npm test: unit tests (Vitest), then end-to-end tests (Playwright) even if the unit tests failed,
// then the lesson demos (Playwright, one test per lesson), then one closing line "N passed, N failed"
// counted from the three JSON reports, after a summary of load, faults, hostile programs and fuzz counts.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { summarize } from './testSummary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const UNIT_REPORT = 'test-results-json/unit.json';
const E2E_REPORT = 'test-results-json/e2e.json'; // written by the json reporter in playwright.config.ts
const DEMOS_REPORT = 'test-results-json/demos.json'; // written by the json reporter in playwright.demos.config.ts

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error) console.error(`Could not start ${command}: ${result.error.message}`);
  return result.status ?? 1;
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

for (const file of [UNIT_REPORT, E2E_REPORT, DEMOS_REPORT]) rmSync(new URL(`../${file}`, import.meta.url), { force: true });

// Types first: svelte-check (the page) and tsc (tests, specs, benchmarks) must be clean.
console.log('Type check (svelte-check and tsc)…');
const checkExit = run('npm', ['run', '--silent', 'check']);

console.log('');
console.log('Unit tests (Vitest)…');
const unitExit = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${UNIT_REPORT}`]);

// e2e.mjs finds or installs Chromium, prints the "End-to-end tests (Playwright, Chromium at …)…" header and runs Playwright.
console.log('');
const e2eExit = run(process.execPath, ['scripts/e2e.mjs']);

// demos.mjs prints its own "Lesson demos (Playwright, Chromium at …)…" header; the demos have their own default port.
console.log('');
// As a stage of the suite the demos check the lessons; the traces they exist to show are for
// `npm run demos`, and recording them costs time. They preview the build the e2e stage just made.
const e2eDist = process.env.E2E_PORT && process.env.E2E_PORT !== '4173' ? `dist-e2e-${process.env.E2E_PORT}` : 'dist';
process.env.DEMO_PREBUILT = e2eDist;
const demosExit = run(process.execPath, ['scripts/demos.mjs', '--trace', 'off']);

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
const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0);

console.log('');
// Load, faults, hostile programs and fuzz counts, read from the same reports (scripts/testSummary.mjs).
const summary = summarize({ unit: readReport(UNIT_REPORT), e2e: readReport(E2E_REPORT), demos: readReport(DEMOS_REPORT) });
for (const line of summary.lines) console.log(line);
console.log('');
for (const note of results.flatMap((r) => r.notes)) console.log(note);
if (passed + failed === 0) console.log('No tests ran: there has to be at least one.');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
