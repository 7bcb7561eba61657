/**
 * Issue 28, load measured (npm run bench, "load: tabs on one session"): times taken in the page.
 *
 *  - 4 tabs × 100 confirmed commits on one session, each tab on its own branch, all at once,
 *    against 1 tab × 100 in the same run (the baseline): commits/s, and p50/p99 of Confirm →
 *    desk table and revision updated. Then: every commit appended once, each branch's desk right,
 *    and the export parses as a valid tree (the domain's importer, no line skipped, no warning).
 *  - 2 tabs that both reserve the last marigold at the same moment, 100 pairs: both commit, each
 *    on its own branch; nothing hangs (every Confirm settles within 15 s), nothing doubled.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright';
import { cryptoIdSource } from '../domain/ids';
import { parseSessionJsonl } from '../domain/journal/importJsonl';
import { APP_URL, withBrowser } from './browserKit';
import { FRAME_WITH_LIMIT, rounds, within } from './limits';
import { median, percentile, printTable, saveFigures, type Figure } from './stats';

// Even counts: a reserve and a release each, so every branch ends at its starting desk.
const COMMITS = Number(process.env['BENCH_LOAD_COMMITS'] ?? rounds(100, 6));
const TABS = 4;
const PAIRS = Number(process.env['BENCH_LOAD_PAIRS'] ?? rounds(100, 3));
const SETTLE_MS = 15_000;
/** A tab's whole run: every commit settles within SETTLE_MS, so this only catches a helper that never returns. */
const runLimit = (commits: number) => 60_000 + commits * 2 * SETTLE_MS;

/**
 * In-page helpers: `open(line)` types a line and waits for the dialog; `confirm()` clicks Confirm
 * and resolves with the ms until the desk table and the revision have both changed. Awaited with
 * MutationObservers inside the page, so Playwright's polling does not delay what is timed.
 */
const HELPERS = `(() => {
  const input = document.querySelector('input[placeholder^="/seeds query"]');
  const table = document.querySelector('table.desk tbody');
  const revision = document.querySelector('[aria-label="Revision"]');
  if (!input || !table || !revision) throw new Error('the page lacks the command line, the desk or the revision');
  const until = (target, accept, what) => new Promise((resolve, reject) => {
    if (accept()) return resolve(performance.now());
    const timer = setTimeout(() => { observer.disconnect(); reject(new Error('hung: ' + what)); }, ${SETTLE_MS});
    const observer = new MutationObserver(() => {
      if (!accept()) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve(performance.now());
    });
    observer.observe(target, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const confirmButton = () => [...document.querySelectorAll('dialog[open] button')].find((button) => button.textContent === 'Confirm' && !button.disabled);
  const frame = ${FRAME_WITH_LIMIT()};
  window.__load = {
    async open(line) {
      input.value = line;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await frame();
      const opened = until(document.body, () => confirmButton() !== undefined, 'dialog for ' + line);
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
      await opened;
      await frame();
      await frame();
    },
    async confirm() {
      const before = [table.textContent, revision.textContent];
      const tableChanged = until(table, () => table.textContent !== before[0], 'desk after Confirm');
      const revisionChanged = until(revision, () => revision.textContent !== before[1], 'revision after Confirm');
      const start = performance.now();
      confirmButton().click();
      const end = Math.max(await tableChanged, await revisionChanged);
      await until(document.body, () => !document.querySelector('dialog[open]'), 'dialog closed');
      return end - start;
    },
    async run(lines) {
      const times = [];
      for (const line of lines) {
        await this.open(line);
        times.push(await this.confirm());
        if (times.length % 25 === 0) console.log('load: ' + times.length + ' of ' + lines.length + ' confirmed');
      }
      return times;
    },
  };
})()`;

let tabsOpened = 0;
async function openTab(context: BrowserContext): Promise<Page> {
  const tab = ++tabsOpened;
  const page = await within(`opening tab ${tab}`, 60_000, context.newPage());
  page.on('pageerror', (error) => console.error(`tab ${tab}: page error:`, error.message));
  // The helper's progress, so a long run is seen to move.
  page.on('console', (message) => {
    if (message.text().startsWith('load: ')) console.log(`tab ${tab}: ${message.text().slice(6)}`);
  });
  await page.goto(APP_URL);
  await page.getByRole('table', { name: 'Seed desk' }).waitFor();
  await page.evaluate(HELPERS);
  return page;
}

/** Alternate reserve and release of one basil: an even count nets to the branch's starting desk. */
const lines = (count: number) => Array.from({ length: count }, (_, i) => `/seeds ${i % 2 === 0 ? 'reserve' : 'release'} basil-genovese 1`);

async function typeLine(page: Page, line: string): Promise<void> {
  const command = page.getByRole('textbox', { name: 'Command' });
  await command.fill(line);
  await command.press('Enter');
}

async function deskCell(page: Page, id: string): Promise<string> {
  const cells = page.getByRole('table', { name: 'Seed desk' }).getByRole('row', { name: new RegExp(id) }).getByRole('cell');
  return `${await cells.nth(0).textContent()}/${await cells.nth(1).textContent()}`;
}

async function exported(page: Page): Promise<string> {
  await page.getByRole('tablist', { name: 'Tools' }).getByRole('tab', { name: 'Sessions', exact: true }).click();
  const download = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Export session' }).click();
  // download.path() has no limit of its own: a download that never finishes would wait forever.
  return readFileSync(await within('the exported session file to finish downloading', 60_000, (await download).path()), 'utf8');
}

/** The session's file as the domain reads it: entries, seed desk entries, distinct ids, and whether it is a valid tree. */
function audit(jsonl: string) {
  const parsed = parseSessionJsonl(jsonl, cryptoIdSource);
  const lines = jsonl.split('\n').filter((line) => line.length > 0).slice(1).map((line) => JSON.parse(line) as { id: string; customType?: string });
  const desk = lines.filter((entry) => entry.customType === 'seed-desk-state-v1');
  return {
    valid: parsed.ok && parsed.skipped.length === 0 && parsed.warnings.length === 0,
    entries: lines.length,
    deskEntries: desk.length,
    distinct: new Set(lines.map((entry) => entry.id)).size,
  };
}

/** `tabs` tabs on one fresh session, each committing `count` times on its own branch, all at once. */
async function loadRun(context: BrowserContext, tabs: number, count: number) {
  const first = await openTab(context);
  await typeLine(first, `load of ${tabs} tab(s) starts here`);
  // The other tabs open the session this line is stored in.
  await first.getByRole('list', { name: 'Command output' }).getByText(`load of ${tabs} tab(s) starts here`).waitFor();
  const pages = [first];
  for (let i = 1; i < tabs; i++) pages.push(await openTab(context));
  const started = Date.now();
  const times = await Promise.all(
    pages.map((page, tab) =>
      within(
        `tab ${tab + 1} of ${tabs}, ${count} confirmed commits`,
        runLimit(count),
        page.evaluate<number[], string[]>((all) => (window as unknown as { __load: { run(l: string[]): Promise<number[]> } }).__load.run(all), lines(count)),
      ),
    ),
  );
  const seconds = (Date.now() - started) / 1000;
  const desks = await Promise.all(pages.map((page) => deskCell(page, 'basil-genovese')));
  const file = audit(await exported(first));
  for (const page of pages) await page.close();
  return { samples: times.flat(), commitsPerSecond: (tabs * count) / seconds, desks, file };
}

/** 2 tabs, each having reserved 2 of 3 marigolds on its own branch, both reserve the last at once, then both release it. */
async function raceRun(context: BrowserContext, pairs: number) {
  const first = await openTab(context);
  await typeLine(first, 'the last marigold');
  await first.getByRole('list', { name: 'Command output' }).getByText('the last marigold').waitFor();
  const pages = [first, await openTab(context)];
  type Load = { __load: { open(l: string): Promise<void>; confirm(): Promise<number>; run(l: string[]): Promise<number[]> } };
  await Promise.all(pages.map((page, tab) => within(`race tab ${tab + 1}: reserving 2 marigolds`, runLimit(1), page.evaluate(() => (window as unknown as Load).__load.run(['/seeds reserve marigold-french 2'])))));
  let hung = 0;
  const samples: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    if (pair > 0 && pair % 25 === 0) console.log(`race: ${pair} of ${pairs} pairs`);
    for (const line of ['/seeds reserve marigold-french 1', '/seeds release marigold-french 1']) {
      try {
        await Promise.all(pages.map((page, tab) => within(`race pair ${pair}, tab ${tab + 1}: the dialog for ${line}`, runLimit(1), page.evaluate((l) => (window as unknown as Load).__load.open(l), line))));
        // Both Confirms at the same moment: clicked from one task in each page, started together.
        samples.push(...(await Promise.all(pages.map((page, tab) => within(`race pair ${pair}, tab ${tab + 1}: Confirm of ${line}`, runLimit(1), page.evaluate(() => (window as unknown as Load).__load.confirm()))))));
      } catch (error) {
        hung++;
        console.error(`pair ${pair}: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      }
    }
  }
  const desks = await Promise.all(pages.map((page) => deskCell(page, 'marigold-french')));
  const file = audit(await exported(pages[0] as Page));
  for (const page of pages) await page.close();
  return { samples, hung, desks, file };
}

async function main(): Promise<void> {
  const figures: Figure[] = [];
  await withBrowser(async (browser) => {
    // One context: the tabs share the origin's database, lease and channels, as a person's tabs do.
    const baseline = await loadRun(await browser.newContext(), 1, COMMITS);
    const load = await loadRun(await browser.newContext(), TABS, COMMITS);
    const race = await raceRun(await browser.newContext(), PAIRS);
    const ms = (samples: number[], p: number) => `${percentile(samples, p).toFixed(1)} ms`;
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    const p50Ratio = median(load.samples) / median(baseline.samples);
    const p99Ratio = percentile(load.samples, 99) / percentile(baseline.samples, 99);
    const expectedDesk = '8/0';
    const loadRight = load.file.valid && load.file.deskEntries === TABS * COMMITS && load.file.distinct === load.file.entries && load.desks.every((desk) => desk === expectedDesk);
    const raceCommits = 2 * (1 + 2 * PAIRS);
    const raceRight = race.hung === 0 && race.file.valid && race.file.deskEntries === raceCommits && race.file.distinct === race.file.entries && race.desks.every((desk) => desk === '1/2');
    printTable(
      `Load: ${TABS} tabs × ${COMMITS} confirmed commits on one session against 1 tab × ${COMMITS}, and ${PAIRS} pairs racing for the last marigold`,
      ['measure', '1 tab (baseline)', `${TABS} tabs`, 'ratio'],
      [
        ['commits/s (all tabs together)', baseline.commitsPerSecond.toFixed(1), load.commitsPerSecond.toFixed(1), ratio(load.commitsPerSecond, baseline.commitsPerSecond)],
        ['Confirm → desk p50', ms(baseline.samples, 50), ms(load.samples, 50), ratio(median(load.samples), median(baseline.samples))],
        ['Confirm → desk p99', ms(baseline.samples, 99), ms(load.samples, 99), ratio(percentile(load.samples, 99), percentile(baseline.samples, 99))],
        ['seed desk entries in the export / distinct ids / valid tree', `${baseline.file.deskEntries} / ${baseline.file.distinct} of ${baseline.file.entries} / ${baseline.file.valid}`, `${load.file.deskEntries} / ${load.file.distinct} of ${load.file.entries} / ${load.file.valid}`, ''],
        ['basil available/reserved on each branch', baseline.desks.join(' '), load.desks.join(' '), ''],
        ['race: Confirm → desk p50 / p99, hung, marigold per branch', `${ms(race.samples, 50)} / ${ms(race.samples, 99)}`, `${race.hung} hung; ${race.desks.join(' ')}`, ''],
      ],
    );
    figures.push(
      { issue: 28, measure: `load: 1 tab × ${COMMITS} confirmed commits, commits/s (baseline)`, value: baseline.commitsPerSecond.toFixed(1), target: '', met: null },
      { issue: 28, measure: `load: ${TABS} tabs × ${COMMITS} on one session, own branches, commits/s / 1 tab`, value: `${load.commitsPerSecond.toFixed(1)} = ${ratio(load.commitsPerSecond, baseline.commitsPerSecond)}`, target: '≥ 0.5×', met: load.commitsPerSecond / baseline.commitsPerSecond >= 0.5 },
      { issue: 28, measure: `load: Confirm → desk p50, ${TABS} tabs / 1 tab`, value: `${ms(load.samples, 50)} / ${ms(baseline.samples, 50)} = ${p50Ratio.toFixed(2)}×`, target: `≤ ${TABS}×`, met: p50Ratio <= TABS },
      { issue: 28, measure: `load: Confirm → desk p99, ${TABS} tabs / 1 tab`, value: `${ms(load.samples, 99)} / ${ms(baseline.samples, 99)} = ${p99Ratio.toFixed(2)}×`, target: `≤ ${2 * TABS}×`, met: p99Ratio <= 2 * TABS },
      { issue: 28, measure: `load: every commit appended once (${TABS * COMMITS}), each branch's desk right, the export a valid tree`, value: `${load.file.deskEntries} appended, ${load.file.entries - load.file.distinct} doubled, desks ${load.desks.join(' ')}, valid ${load.file.valid}`, target: `${TABS * COMMITS}, 0, all ${expectedDesk}, true`, met: loadRight },
      { issue: 28, measure: `race: 2 tabs reserve the last marigold at once, ${PAIRS} pairs: both commit, own branches, none hung or doubled`, value: `${race.file.deskEntries} of ${raceCommits} appended, ${race.hung} hung, ${race.file.entries - race.file.distinct} doubled, desks ${race.desks.join(' ')}`, target: `${raceCommits}, 0, 0, both 1/2`, met: raceRight },
    );
  });
  await saveFigures('load', figures);
}

await main();
