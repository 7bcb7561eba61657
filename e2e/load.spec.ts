import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { confirmDialogByKeyboard, confirmReservation, expectDesk, openPlayground, openTool, run, tree } from './support';

const ROUNDS = 100;

/**
 * One page's share of the load: alternate reserve and release of one packet, each confirmed with
 * Enter in its dialog. Of two tabs one is always behind the other, where a click waits seconds.
 */
async function commitOnce(page: Page, round: number, id: string): Promise<void> {
  await confirmReservation(page, `/seeds ${round % 2 === 0 ? 'reserve' : 'release'} ${id} 1`, confirmDialogByKeyboard);
}

test('two pages × 100 interleaved commits on one session: each appended once, a valid tree, each branch right', { tag: '@load' }, async ({ context, browser }) => {
  // About 40 s on an idle 2-core machine (Playwright's own steps dominate); the limit leaves room
  // for a machine several times slower.
  test.setTimeout(420_000);
  const first = await context.newPage();
  await openPlayground(first);
  await run(first, 'load starts here');
  const second = await context.newPage();
  await openPlayground(second);
  await expect(tree(second).getByRole('treeitem').filter({ hasText: 'load starts here' })).toBeVisible();

  const started = Date.now();
  for (let round = 0; round < ROUNDS; round++) {
    // Both tabs commit at the same moment, each on its own branch of the same session.
    await Promise.all([commitOnce(first, round, 'bean-scarlet'), commitOnce(second, round, 'basil-genovese')]);
  }
  const seconds = (Date.now() - started) / 1000;
  const throughput = (2 * ROUNDS) / seconds;
  console.log(`load: ${2 * ROUNDS} commits in ${seconds.toFixed(1)} s = ${throughput.toFixed(1)} commits/s (two tabs, each commit confirmed through its dialog)`);
  test.info().annotations.push({ type: 'throughput', description: `${throughput.toFixed(1)} commits/s` });

  // Each page's branch holds exactly its own history: an even number of rounds nets to zero.
  await expectDesk(first, 'bean-scarlet', 5, 0);
  await expectDesk(first, 'basil-genovese', 8, 0);
  await expectDesk(second, 'basil-genovese', 8, 0);
  await expectDesk(second, 'bean-scarlet', 5, 0);

  // Every commit landed exactly once: 200 seed desk entries, and the file imports as a valid tree.
  const download = first.waitForEvent('download');
  await openTool(first, 'Sessions');
  await first.getByRole('button', { name: 'Export session' }).click();
  const path = await (await download).path();
  const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line.length > 0);
  const commits = lines.filter((line) => line.includes('"customType":"seed-desk-state-v1"'));
  const ids = lines.slice(1).map((line) => (JSON.parse(line) as { id: string }).id);
  const distinct = new Set(commits.map((line) => (JSON.parse(line) as { id: string }).id)).size;
  // The figures `npm test` sums up (scripts/testSummary.mjs): what was committed, lost and doubled.
  test.info().annotations.push({ type: 'load', description: JSON.stringify({ commits: 2 * ROUNDS, tabs: 2, lost: Math.max(0, 2 * ROUNDS - distinct), doubled: Math.max(0, commits.length - 2 * ROUNDS) }) });
  expect(commits).toHaveLength(2 * ROUNDS);
  expect(new Set(ids).size).toBe(ids.length);

  const other = await browser.newContext();
  const fresh = await other.newPage();
  await openPlayground(fresh);
  await openTool(fresh, 'Sessions');
  await fresh.getByLabel('Import session').setInputFiles(path);
  const report = fresh.getByRole('region', { name: 'Import report' });
  await expect(report).toContainText(`Imported ${lines.length - 1} entries`);
  await expect(report).not.toContainText('skipped');
  await expect(report).not.toContainText('warning');
  await other.close();
});
