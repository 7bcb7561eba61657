// The summary `npm test` prints before its last line, read from the runners' JSON reports as data:
// tests are grouped by tag (Playwright's `{ tag: '@load' }` or a `@word` in any test's title),
// load figures come from `load` annotations (JSON), fuzz counts from `meta.fuzzInputs`.

/** The tags the summary counts, and what it calls each. */
export const SUMMARY_TAGS = {
  fault: 'faults survived',
  hostile: 'hostile programs contained',
};

const TITLE_TAG = /(?:^|\s)@([A-Za-z][\w-]*)/g;

function titleTags(title) {
  return [...String(title ?? '').matchAll(TITLE_TAG)].map((match) => match[1]);
}

/** Every test of a Playwright JSON report: its tags, whether it passed (flaky counts as passed), its annotations. */
function playwrightTests(report) {
  const tests = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      const tags = new Set([...(spec.tags ?? []), ...titleTags(spec.title)]);
      for (const test of spec.tests ?? []) {
        const annotations = [...(test.annotations ?? []), ...(test.results ?? []).flatMap((result) => result.annotations ?? [])];
        tests.push({ tags, passed: test.status === 'expected' || test.status === 'flaky', annotations, fuzzInputs: 0 });
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report?.suites ?? []) walk(suite);
  return tests;
}

/** Every test of a Vitest JSON report, the same shape. */
function vitestTests(report) {
  return (report?.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? []).map((test) => ({
      tags: new Set([...(test.tags ?? []), ...titleTags(test.title), ...(test.ancestorTitles ?? []).flatMap(titleTags)]),
      passed: test.status === 'passed',
      annotations: [],
      fuzzInputs: Number.isFinite(test.meta?.fuzzInputs) ? test.meta.fuzzInputs : 0,
    })),
  );
}

function loadFigures(tests) {
  const figures = { tests: 0, passed: 0, commits: 0, tabs: 0, lost: 0, doubled: 0, reported: 0 };
  for (const test of tests.filter((t) => t.tags.has('load'))) {
    figures.tests++;
    if (test.passed) figures.passed++;
    for (const annotation of test.annotations.filter((a) => a.type === 'load')) {
      let data;
      try {
        data = JSON.parse(annotation.description ?? '');
      } catch {
        continue;
      }
      figures.reported++;
      figures.commits += Number(data.commits) || 0;
      figures.tabs = Math.max(figures.tabs, Number(data.tabs) || 0);
      figures.lost += Number(data.lost) || 0;
      figures.doubled += Number(data.doubled) || 0;
    }
  }
  return figures;
}

/** The summary's lines and the load figures, from the reports (any may be null: a runner that wrote none). */
export function summarize({ unit = null, e2e = null, demos = null } = {}) {
  const tests = [...vitestTests(unit), ...playwrightTests(e2e), ...playwrightTests(demos)];
  const load = loadFigures(tests);
  const lines = ['Summary'];
  lines.push(
    load.tests === 0
      ? '  load held: no load test ran'
      : `  load held: ${load.passed} of ${load.tests} load tests passed; ${load.commits} commits from up to ${load.tabs} tabs, lost ${load.lost}, doubled ${load.doubled}`,
  );
  for (const [tag, name] of Object.entries(SUMMARY_TAGS)) {
    const tagged = tests.filter((t) => t.tags.has(tag));
    lines.push(`  ${name}: ${tagged.filter((t) => t.passed).length} of ${tagged.length} (tests tagged @${tag})`);
  }
  const fuzzers = tests.filter((t) => t.fuzzInputs > 0);
  const inputs = fuzzers.reduce((sum, t) => sum + t.fuzzInputs, 0);
  lines.push(`  bad inputs tried: ${inputs.toLocaleString('en-US')} by ${fuzzers.length} fuzz tests (${fuzzers.filter((t) => t.passed).length} passed)`);
  return { lines, load };
}
