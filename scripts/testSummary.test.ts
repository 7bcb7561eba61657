/**
 * `npm test`'s summary is read from the JSON reports as data: tags, annotations and test meta,
 * never the display text. Reports shaped as Playwright 1.65 and Vitest 4 write them.
 */
import { describe, expect, it } from 'vitest';
import { summarize } from './testSummary.mjs';

const spec = (title: string, status: string, tags: string[] = [], annotations: { type: string; description?: string }[] = []) => ({
  title,
  tags,
  tests: [{ status, annotations: [], results: [{ status: status === 'expected' ? 'passed' : 'failed', annotations }] }],
});

const e2e = {
  suites: [
    {
      title: 'load.spec.ts',
      specs: [spec('two pages × 100 commits', 'expected', ['load'], [{ type: 'load', description: JSON.stringify({ commits: 200, tabs: 2, lost: 0, doubled: 0 }) }])],
      suites: [
        {
          title: 'faults',
          specs: [spec('a quota error', 'expected', ['fault']), spec('a closed tab', 'unexpected', ['fault']), spec('a sandbox escape @hostile', 'expected')],
        },
      ],
    },
  ],
};

const unit = {
  testResults: [
    {
      assertionResults: [
        { title: 'an append failing after it returned @fault', ancestorTitles: ['HostCore'], status: 'passed', meta: {} },
        { title: '≥ 1,000 mutated files', ancestorTitles: ['import fuzz'], status: 'passed', meta: { fuzzInputs: 1100 } },
        { title: '≥ 10,000 command lines', ancestorTitles: ['command fuzz'], status: 'failed', meta: { fuzzInputs: 10000 } },
        { title: 'lease order', ancestorTitles: ['@load lease'], status: 'passed', meta: {} },
      ],
    },
  ],
};

describe('npm test summary', () => {
  it('counts load, faults, hostile programs and fuzz inputs from tags, annotations and meta', () => {
    const { lines, load } = summarize({ unit, e2e, demos: null });
    expect(load).toMatchObject({ tests: 2, passed: 2, commits: 200, tabs: 2, lost: 0, doubled: 0, reported: 1 });
    expect(lines).toEqual([
      'Summary',
      '  load held: 2 of 2 load tests passed; 200 commits from up to 2 tabs, lost 0, doubled 0',
      '  faults survived: 2 of 3 (tests tagged @fault)',
      '  hostile programs contained: 1 of 1 (tests tagged @hostile)',
      '  bad inputs tried: 11,100 by 2 fuzz tests (1 passed)',
    ]);
  });

  it('says when nothing ran, and never trips over a report that is missing or malformed', () => {
    const { lines } = summarize({ unit: null, e2e: { suites: [{ specs: [spec('x', 'expected', ['load'], [{ type: 'load', description: 'not json' }])] }] } });
    expect(lines[1]).toBe('  load held: 1 of 1 load tests passed; 0 commits from up to 0 tabs, lost 0, doubled 0');
    expect(summarize().lines[1]).toBe('  load held: no load test ran');
  });
});
