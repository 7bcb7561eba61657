/**
 * Branches benchmark (issue 5), in Chromium: the session tree's first render at 1k and 10k
 * entries, the longest task while scrolling it, the import of the real 0.97 MB v1 fixture and of
 * generated journals up to 100k entries, and the reopen of a 100k-entry session from IndexedDB.
 */
import { QUICK } from './limits';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { asEntryId, asSessionId, seededIdSource, type EntryId } from '../domain/ids';
import { customEntry, sessionHeader, userMessageEntry, type JournalEntry } from '../domain/journal/entry';
import { toSessionJsonl } from '../domain/journal/exportJsonl';
import { SEED_DESK_CUSTOM_TYPE } from '../domain/snapshot';
import { APP_URL, scrollCost, withBrowser } from './browserKit';
import { importInPage } from './importKit';
import { printTable, saveFigures, type Figure } from './stats';

const V1_FIXTURE = fileURLToPath(new URL('../fixtures/omp-large-session-v1.jsonl', import.meta.url));

/** A bushy journal: a main line with a side branch every 40 entries, seed desk entries sprinkled in. */
function generateJournal(total: number): string {
  const ids = seededIdSource(total);
  const header = sessionHeader(asSessionId(`bench-${total}-${Date.now()}`), ids.now(), '/bench');
  const entries: JournalEntry[] = [];
  let counter = 0;
  const nextId = (): EntryId => asEntryId((counter++).toString(16).padStart(8, '0'));
  let mainTip: EntryId | null = null;
  while (entries.length < total) {
    const index = entries.length;
    const branchOff: boolean = index % 40 === 39 && mainTip !== null;
    const parentId: EntryId | null = branchOff ? (entries[Math.max(0, index - 20)]?.id ?? null) : mainTip;
    const place = { id: nextId(), parentId, timestamp: ids.now() };
    const entry: JournalEntry = index % 25 === 24
      ? customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: index % 2 === 0, quantities: { 'bean-scarlet': index % 6 } }, place)
      : userMessageEntry(`message ${index}: what to sow next in bed ${index % 12}`, place);
    entries.push(entry);
    if (!branchOff) mainTip = entry.id;
  }
  // The last line decides the leaf on import: end on the main line.
  const last = entries.at(-1);
  if (last && last.parentId !== mainTip) entries.push(userMessageEntry('back on the main line', { id: nextId(), parentId: mainTip, timestamp: ids.now() }));
  return toSessionJsonl(header, entries);
}

async function measures(page: Page, name: string): Promise<{ duration: number; detail: unknown }[]> {
  return page.evaluate((n) => performance.getEntriesByName(n).map((entry) => ({ duration: entry.duration, detail: (entry as PerformanceMeasure).detail })), name);
}

/** Import as the user sees it (bench/importKit.ts: file chosen → report shown), then the tree's first render. */
async function importFile(page: Page, path: string, expectedEntries: number): Promise<{ importMs: number; treeMs: number }> {
  const imported = await importInPage(page, APP_URL, path, expectedEntries);
  await page.waitForFunction((n) => performance.getEntriesByName('seed-desk:tree-render').some((entry) => Number((entry as PerformanceMeasure).detail) >= n), expectedEntries, { timeout: 60_000 });
  const trees = (await measures(page, 'seed-desk:tree-render')).filter((entry) => Number(entry.detail) >= expectedEntries);
  return { importMs: imported.ms, treeMs: trees[0]?.duration ?? Number.NaN };
}

async function reopen(page: Page): Promise<number> {
  await page.evaluate(() => performance.clearMeasures());
  await page.getByRole('button', { name: 'Reopen session' }).click();
  await page.waitForFunction(() => performance.getEntriesByName('seed-desk:worker-round-trip').some((entry) => (entry as PerformanceMeasure).detail === 'reopen'));
  const found = (await measures(page, 'seed-desk:worker-round-trip')).find((entry) => entry.detail === 'reopen');
  return found?.duration ?? Number.NaN;
}

const f = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : 'n/a');

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'seed-desk-bench-'));
  // Quick mode: the sizes the figures judge, without the 100k file (its import is timed in the import part).
  const files = (QUICK ? [1_000, 10_000] : [1_000, 10_000, 100_000]).map((size) => {
    const path = join(dir, `generated-${size}.jsonl`);
    writeFileSync(path, generateJournal(size));
    return { size, path };
  });
  await withBrowser(async (browser: Browser) => {
    const rows: string[][] = [];
    const figures: Figure[] = [];
    const context = await browser.newContext();
    const v1 = await importFile(await context.newPage(), V1_FIXTURE, 1018);
    rows.push([`real v1 fixture (${(statSync(V1_FIXTURE).size / 1e6).toFixed(2)} MB, 1,018 entries)`, f(v1.importMs), f(v1.treeMs), '', '', '']);
    figures.push({ issue: 5, measure: 'import of the 0.97 MB v1 fixture', value: f(v1.importMs), target: '', met: null });
    await context.close();
    for (const { size, path } of files) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      const entries = readFileSync(path, 'utf8').split('\n').filter(Boolean).length - 1;
      const result = await importFile(page, path, entries);
      // Quick mode scrolls the 1k tree only: 10k rows are about 800 frames, minutes on a loaded machine.
      const scroll = size <= (QUICK ? 1_000 : 10_000) ? await scrollCost(page, '.graph-viewport') : null;
      const reopenMs = size === 100_000 ? await reopen(page) : Number.NaN;
      rows.push([
        `generated ${size.toLocaleString('en')} (${(statSync(path).size / 1e6).toFixed(1)} MB)`,
        f(result.importMs),
        f(result.treeMs),
        scroll ? `${scroll.longestTaskMs.toFixed(0)} ms (${scroll.longTasks} over 50 ms)` : '',
        scroll ? `${scroll.worstFrameMs.toFixed(0)} ms over ${scroll.frames} frames` : '',
        f(reopenMs),
      ]);
      if (size <= 10_000) figures.push({ issue: 5, measure: `tree first render at ${size.toLocaleString('en')} entries`, value: f(result.treeMs), target: '≤ 200 ms at 10k', met: size === 10_000 ? result.treeMs <= 200 : null });
      if (scroll) figures.push({ issue: 5, measure: `longest task while scrolling ${size.toLocaleString('en')} entries`, value: `${scroll.longestTaskMs.toFixed(0)} ms`, target: 'none over 50 ms', met: scroll.longTasks === 0 });
      if (size === 100_000) {
        figures.push({ issue: 5, measure: 'import of a generated 100k-entry journal', value: f(result.importMs), target: '', met: null });
        figures.push({ issue: 5, measure: 'reopen of a 100k-entry session from IndexedDB', value: f(reopenMs), target: '', met: null });
      }
      await ctx.close();
    }
    await saveFigures('tree', figures);
    printTable(`Branches (Chromium ${browser.version()}); targets: tree first render at 10k ≤ 200 ms, no long task over 50 ms while scrolling`, ['journal', 'import', 'tree first render', 'longest task while scrolling', 'worst frame while scrolling', 'reopen'], rows);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
