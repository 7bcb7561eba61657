/**
 * Browser benchmark (issues 3 and 12), in headless Chromium through Playwright:
 *  - the revision-checked commit against a bare IndexedDB put+commit, same page, alternating;
 *  - the reopen's head read and full load at 5k and 50k entries (same branch depth), store side;
 *  - the worker round trip as the page sees it (User Timing measures recorded by the app);
 *  - "command typed → answer shown" and "Confirm clicked → desk table updated", timed in the
 *    page from the input event to the DOM mutation.
 */
import type { Page } from 'playwright';
import type { CommitBenchResult } from './browser/commitBench';
import type { HeadBenchResult } from './browser/headBench';
import { APP_URL, STORE_BENCH_URL as BENCH_URL, withBrowser } from './browserKit';
import { rounds, within } from './limits';
import { formatMicros, median, percentile, printTable, saveFigures } from './stats';

const UI_ROUNDS = rounds(40, 4);

const ms = (values: readonly number[], p: number) => formatMicros(percentile(values, p) * 1000);

/** Quick mode: the storage bench page runs a few rounds (`?quick`). */
const QUICK_QUERY = rounds(0, 1) === 1 ? '&quick' : '';

/** Runs one bench of the storage bench page (bench/browser/storeBench.ts) and hands back its result. */
async function benchPage<T>(page: Page, bench: 'commit' | 'head'): Promise<T> {
  await page.goto(`${BENCH_URL}?bench=${bench}${QUICK_QUERY}`);
  await page.waitForFunction(() => {
    const w = window as unknown as { __benchResult?: unknown; __benchError?: string };
    if (w.__benchError) throw new Error(w.__benchError);
    return w.__benchResult !== undefined;
  }, undefined, { timeout: 300_000, polling: 250 }).catch((error: unknown) => {
    throw new Error(`The storage bench page's ${bench} bench did not finish within 300 s (${error instanceof Error ? error.message.split('\n')[0] : String(error)}).`);
  });
  return page.evaluate(() => (window as unknown as { __benchResult: T }).__benchResult);
}

async function uiBench(page: Page) {
  await page.goto(APP_URL);
  const desk = page.getByRole('table', { name: 'Seed desk' });
  await desk.waitFor();
  await page.evaluate(() => {
    const marks = { enter: [] as number[], confirm: [] as number[], output: [] as number[], table: [] as number[] };
    (window as unknown as { __marks: typeof marks }).__marks = marks;
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && event.target instanceof HTMLInputElement) marks.enter.push(performance.now());
    }, true);
    document.addEventListener('click', (event) => {
      if (event.target instanceof HTMLElement && event.target.textContent === 'Confirm') marks.confirm.push(performance.now());
    }, true);
    const table = document.querySelector('table tbody');
    const output = document.querySelector('ol[aria-label="Command output"]');
    if (table) new MutationObserver(() => marks.table.push(performance.now())).observe(table, { subtree: true, childList: true, characterData: true });
    // Only the answer counts, not the echo of the typed line that appears first.
    if (output) new MutationObserver(() => {
      if (output.lastElementChild?.classList.contains('out-answer')) marks.output.push(performance.now());
    }).observe(output, { subtree: true, childList: true, characterData: true });
  });
  const command = page.getByRole('textbox', { name: 'Command' });
  for (let i = 0; i < UI_ROUNDS; i++) {
    await command.fill('/seeds query');
    await command.press('Enter');
    await page.getByRole('list', { name: 'Command output' }).getByText(/revision:/).nth(i).waitFor();
  }
  const queryMarks = await page.evaluate(() => {
    const m = (window as unknown as { __marks: { enter: number[]; output: number[] } }).__marks;
    return { enter: [...m.enter], output: [...m.output] };
  });
  for (let i = 0; i < UI_ROUNDS; i++) {
    await command.fill(i % 2 === 0 ? '/seeds reserve basil-genovese 1' : '/seeds release basil-genovese 1');
    await command.press('Enter');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await desk.getByRole('row', { name: /basil-genovese/ }).getByRole('cell').nth(1).filter({ hasText: i % 2 === 0 ? '1' : '0' }).waitFor();
  }
  const marks = await page.evaluate(() => (window as unknown as { __marks: { confirm: number[]; table: number[] } }).__marks);
  const roundTrips = await page.evaluate(() => performance.getEntriesByName('seed-desk:worker-round-trip').map((entry) => entry.duration));
  const byType = await page.evaluate(() => performance.getEntriesByName('seed-desk:worker-round-trip').map((entry) => `${(entry as PerformanceMeasure).detail}:${entry.duration.toFixed(1)}`));
  if (process.env.BENCH_DEBUG) console.log(byType.join(' '));
  const firstAfter = (starts: number[], ends: number[]) =>
    starts.map((start) => (ends.find((end) => end >= start) ?? Number.NaN) - start).filter((value) => Number.isFinite(value));
  return {
    query: firstAfter(queryMarks.enter.slice(0, UI_ROUNDS), queryMarks.output),
    confirm: firstAfter(marks.confirm, marks.table),
    roundTrips,
  };
}

async function main(): Promise<void> {
  await withBrowser(
    async (browser) => {
      const store = await benchPage<CommitBenchResult>(await browser.newPage(), 'commit');
      const head = await benchPage<HeadBenchResult>(await browser.newPage(), 'head');
      const ui = await uiBench(await browser.newPage());
      const ratio = percentile(store.checked, 50) / percentile(store.bare, 50);
      const [small, large] = head.sizes;
      if (!small || !large) throw new Error('the head bench measured fewer than two sizes');
      const headRatio = median(large.head) / median(small.head);
      const loadRatio = median(large.load) / median(small.load);
      const k = (size: number) => `${size / 1000}k`;
      const how = store.lease ? 'writer lease: the head this tab wrote is known' : 'no Web Locks: head read in the transaction';
      const confirmP95 = percentile(ui.confirm, 95);
      const queryP95 = percentile(ui.query, 95);
      printTable(`Browser (Chromium ${browser.version()}); ${store.checked.length} commits each; ${UI_ROUNDS} UI rounds`, ['measure', 'p50', 'p95', 'target', 'met'], [
        ['bare IndexedDB put+commit (baseline)', ms(store.bare, 50), ms(store.bare, 95), '', ''],
        ['revision-checked commit (store)', ms(store.checked, 50), ms(store.checked, 95), '', ''],
        ['checked / bare at p50', ratio.toFixed(2), (percentile(store.checked, 95) / percentile(store.bare, 95)).toFixed(2), '≤ 1.3 at p50', ratio <= 1.3 ? 'yes' : 'no'],
        [`head read, ${k(small.size)} entries (depth ${small.depth})`, ms(small.head, 50), ms(small.head, 95), '', ''],
        [`head read, ${k(large.size)} entries (depth ${large.depth})`, ms(large.head, 50), ms(large.head, 95), '', ''],
        [`head read ${k(large.size)} / ${k(small.size)}`, headRatio.toFixed(2), '', '≤ 1.5', headRatio <= 1.5 ? 'yes' : 'no'],
        [`full load ${k(small.size)} / ${k(large.size)}`, `${ms(small.load, 50)} / ${ms(large.load, 50)}`, '', '', ''],
        ['worker round trip (page ↔ worker), Playwright driving', ms(ui.roundTrips, 50), ms(ui.roundTrips, 95), '', ''],
        ['/seeds query typed → answer shown', ms(ui.query, 50), ms(ui.query, 95), 'p95 ≤ 30 ms', queryP95 <= 30 ? 'yes' : 'no'],
        ['Confirm clicked → desk table updated', ms(ui.confirm, 50), ms(ui.confirm, 95), 'p95 ≤ 30 ms', confirmP95 <= 30 ? 'yes' : 'no'],
      ]);
      await saveFigures('browser', [
        { issue: 3, measure: 'bare IndexedDB put+commit p50 (baseline)', value: ms(store.bare, 50), target: '', met: null },
        { issue: 3, measure: 'revision-checked commit p50 / p95', value: `${ms(store.checked, 50)} / ${ms(store.checked, 95)}`, target: '', met: null },
        { issue: 12, measure: `checked commit / bare put+commit at p50 (${how})`, value: ratio.toFixed(2), target: '≤ 1.3', met: ratio <= 1.3 },
        { issue: 12, measure: `reopen, store side: head read ${k(small.size)} / ${k(large.size)} entries, same branch depth (p50)`, value: `${ms(small.head, 50)} / ${ms(large.head, 50)}`, target: '', met: null },
        { issue: 12, measure: `reopen, store side: head read ${k(large.size)} / ${k(small.size)} at p50`, value: headRatio.toFixed(2), target: '≤ 1.5', met: headRatio <= 1.5 },
        { issue: 12, measure: `reopen, store side: full load ${k(small.size)} / ${k(large.size)} entries (p50; ratio ${loadRatio.toFixed(1)})`, value: `${ms(small.load, 50)} / ${ms(large.load, 50)}`, target: '', met: null },
        { issue: 3, measure: 'worker round trip p50 / p95 while Playwright types and clicks (its input and polling share the main thread of the page; the #12 rows time in the page, without them)', value: `${ms(ui.roundTrips, 50)} / ${ms(ui.roundTrips, 95)}`, target: '', met: null },
        { issue: 3, measure: '/seeds query typed → answer shown p95', value: ms(ui.query, 95), target: '≤ 30 ms', met: queryP95 <= 30 },
        { issue: 3, measure: 'Confirm clicked → desk table updated p95', value: ms(ui.confirm, 95), target: '≤ 30 ms', met: confirmP95 <= 30 },
        { issue: 7, measure: 'checked commits per second, one tab (1 / p50)', value: (1000 / percentile(store.checked, 50)).toFixed(0), target: '', met: null },
      ]);
    },
    { storePage: true },
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
