import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { branchFromItem, confirmReservation, expectDesk, grantAgent, openPlayground, output, revisionText, run, tree, openTool } from './support';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

test('rewinding before a reservation shows 0 reserved; a sibling holds 1 while the original keeps 2', async ({ page }) => {
  await openPlayground(page);
  await run(page, 'plan the beds');
  await confirmReservation(page, '/seeds reserve basil-genovese 2');
  await expectDesk(page, 'basil-genovese', 6, 2);
  const original = await revisionText(page);

  // Rewind: choose the user message, whose parent becomes the leaf (the host's /tree rule).
  await branchFromItem(page, 'plan the beds');
  await expectDesk(page, 'basil-genovese', 8, 0);
  await expect(page.getByRole('note').filter({ hasText: 'without appending anything' })).toBeVisible();

  await confirmReservation(page, '/seeds reserve basil-genovese 1');
  await expectDesk(page, 'basil-genovese', 7, 1);
  const sibling = await revisionText(page);
  expect(sibling).not.toBe(original);

  // The original branch still holds 2.
  await branchFromItem(page, 'basil-genovese 2');
  await expectDesk(page, 'basil-genovese', 6, 2);
  await expect(page.getByLabel('Revision', { exact: true })).toHaveText(original);
});

test("a sibling branch's revision is refused with stale-revision from the compare view", async ({ page }) => {
  // Only the agent's act carries a revision it chose; the grant sits above the fork, on both branches.
  await openPlayground(page);
  await grantAgent(page);
  await run(page, 'first idea');
  await confirmReservation(page, '/seeds reserve bean-scarlet 2');
  await branchFromItem(page, 'first idea');
  await confirmReservation(page, '/seeds reserve bean-scarlet 1');

  await tree(page).getByRole('treeitem').filter({ hasText: 'bean-scarlet 2' }).click();
  await page.getByRole('button', { name: 'Compare with selected' }).click();
  await expect(page.getByRole('region', { name: 'This branch' })).toContainText('bean-scarlet');
  await expect(page.getByRole('region', { name: 'Other branch' })).toBeVisible();
  await page.getByRole('button', { name: "Try an act here with the other branch's revision" }).click();
  await expect(page.getByRole('status', { name: 'Compare attempt' })).toContainText('stale-revision');
  await expectDesk(page, 'bean-scarlet', 4, 1);
});

test('a reload restores reservations and revision, and a navigation without an append does not survive (the notice said so)', async ({ page }) => {
  await openPlayground(page);
  await run(page, 'morning');
  await confirmReservation(page, '/seeds reserve marigold-french 1');
  const revision = await revisionText(page);
  await branchFromItem(page, 'morning');
  await expectDesk(page, 'marigold-french', 3, 0);
  await expect(page.getByRole('note').filter({ hasText: 'a reload appends nothing and returns to the last appended entry' })).toBeVisible();
  await page.reload();
  await expectDesk(page, 'marigold-french', 2, 1);
  await expect(page.getByLabel('Revision', { exact: true })).toHaveText(revision);
  await expect(page.getByRole('note').filter({ hasText: 'did not survive' })).toBeVisible();
});

test('a new session has nothing reserved, the agent off and a new identity', async ({ page }) => {
  await openPlayground(page);
  await grantAgent(page);
  await confirmReservation(page, '/seeds reserve basil-genovese 3');
  const before = await revisionText(page);
  await openTool(page, 'Sessions');
  await page.getByRole('button', { name: 'New session', exact: true }).click();
  await expectDesk(page, 'basil-genovese', 8, 0);
  await expect(page.getByRole('status', { name: 'Status line' })).toContainText('agent off');
  const after = await revisionText(page);
  expect(after.split(':')[0]).not.toBe(before.split(':')[0]);
  await openTool(page, 'Sessions');
  await expect(page.getByRole('list', { name: 'Session list' }).getByRole('listitem')).toHaveCount(2);
});

test('fork to new session keeps the state but gets a new revision', async ({ page }) => {
  await openPlayground(page);
  await confirmReservation(page, '/seeds reserve bean-scarlet 2');
  const before = await revisionText(page);
  await openTool(page, 'Sessions');
  await page.getByRole('button', { name: 'Fork to new session' }).click();
  await expect(page.getByLabel('Revision', { exact: true })).not.toHaveText(before);
  await expectDesk(page, 'bean-scarlet', 3, 2);
  expect((await revisionText(page)).split(':')[1]).toBe(before.split(':')[1]);
});

test('importing the real v3 fixture shows 4 bean-scarlet with the agent on; the marigold branch holds 1', async ({ page }) => {
  await openPlayground(page);
  await openTool(page, 'Sessions');
  await page.getByLabel('Import session').setInputFiles(fixture('pi-v3-seed-desk.jsonl'));
  await openTool(page, 'Sessions');
  await expect(page.getByRole('region', { name: 'Import report' })).toContainText('Imported 8 entries');
  await expectDesk(page, 'bean-scarlet', 1, 4);
  await expect(page.getByLabel('Revision', { exact: true })).toHaveText('01a2375c-1cf0-7018-89a5-8d86d60cc943:35cb8510');
  await expect(page.getByRole('status', { name: 'Status line' })).toContainText('agent on');
  await branchFromItem(page, 'marigold-french 1');
  await expectDesk(page, 'marigold-french', 2, 1);
});

test('importing the large v1 fixture migrates it to one chain with the leaf on the last entry', async ({ page }) => {
  await openPlayground(page);
  await openTool(page, 'Sessions');
  await page.getByLabel('Import session').setInputFiles(fixture('omp-large-session-v1.jsonl'));
  const report = page.getByRole('region', { name: 'Import report' });
  await expect(report).toContainText('Imported 1018 entries');
  await expect(report).toContainText('migrated from v1');
  await openTool(page, 'Journal');
  await expect(page.getByLabel('Journal line count')).toHaveText('1019 lines');
  await expect(page.getByLabel('Revision', { exact: true })).toHaveText(/:root$/);
});

test('export then import in a fresh browser gives back the same file', async ({ page, browser }) => {
  await openPlayground(page);
  await run(page, 'export me');
  await confirmReservation(page, '/seeds reserve basil-genovese 2');
  await branchFromItem(page, 'export me');
  await confirmReservation(page, '/seeds reserve marigold-french 1');
  const download = page.waitForEvent('download');
  await openTool(page, 'Sessions');
  await page.getByRole('button', { name: 'Export session' }).click();
  const file = await (await download).path();
  const exported = readFileSync(file, 'utf8');

  const other = await browser.newContext();
  const fresh = await other.newPage();
  await openPlayground(fresh);
  await openTool(fresh, 'Sessions');
  await fresh.getByLabel('Import session').setInputFiles(file);
  await openTool(fresh, 'Sessions');
  await expect(fresh.getByRole('region', { name: 'Import report' })).toContainText('Imported 3 entries');
  await expectDesk(fresh, 'marigold-french', 2, 1);
  const again = fresh.waitForEvent('download');
  await openTool(fresh, 'Sessions');
  await fresh.getByRole('button', { name: 'Export session' }).click();
  expect(readFileSync(await (await again).path(), 'utf8')).toBe(exported);
  await other.close();
});

test('a file that is not a session is refused with its line number, and nothing is imported', async ({ page }) => {
  await openPlayground(page);
  await openTool(page, 'Sessions');
  await page.getByLabel('Import session').setInputFiles({ name: 'notes.jsonl', mimeType: 'text/plain', buffer: Buffer.from('{"hello":"world"}\n') });
  await openTool(page, 'Sessions');
  await expect(page.getByRole('region', { name: 'Import report' })).toContainText('Nothing was imported. Line 1');
  await openTool(page, 'Sessions');
  await expect(page.getByRole('list', { name: 'Session list' }).getByRole('listitem')).toHaveCount(1);
});

test('keyboard only: select an entry with the arrow keys and branch with Enter', async ({ page }) => {
  await openPlayground(page);
  await run(page, 'keyboard branch');
  await confirmReservation(page, '/seeds reserve bean-scarlet 1');
  await expectDesk(page, 'bean-scarlet', 4, 1);
  await tree(page).getByRole('treeitem', { selected: true }).focus();
  await page.keyboard.press('Home');
  await expect(tree(page).getByRole('treeitem', { selected: true })).toContainText('keyboard branch');
  await page.keyboard.press('ArrowDown');
  await expect(tree(page).getByRole('treeitem', { selected: true })).toContainText('seed desk');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expectDesk(page, 'bean-scarlet', 5, 0);
  await expect(output(page)).toBeVisible();
});

test('two tabs see each other’s appends, keep their own leaves, and can both reserve all 3 marigolds on sibling branches', async ({ page, context }) => {
  await openPlayground(page);
  await run(page, 'shared start');
  const second = await context.newPage();
  await openPlayground(second);
  await expect(tree(second).getByRole('treeitem').filter({ hasText: 'shared start' })).toBeVisible();

  // Back to the first tab, as a person would before using it (a tab behind another barely draws).
  await page.bringToFront();
  await confirmReservation(page, '/seeds reserve marigold-french 3');
  await expectDesk(page, 'marigold-french', 0, 3);
  // The other tab sees the new entry appear live, but its leaf stays on "shared start".
  await expect(tree(second).getByRole('treeitem').filter({ hasText: 'marigold-french 3' })).toBeVisible();
  await expectDesk(second, 'marigold-french', 3, 0);

  await second.bringToFront();
  await confirmReservation(second, '/seeds reserve marigold-french 3');
  await expectDesk(second, 'marigold-french', 0, 3);
  await expect(tree(page).getByRole('treeitem').filter({ hasText: 'marigold-french 3' })).toHaveCount(2);

  // Side by side: 6 reserved of 3 packets across the two branches.
  await tree(second).getByRole('treeitem').filter({ hasText: 'marigold-french 3' }).filter({ hasNotText: '← leaf' }).click();
  await second.getByRole('button', { name: 'Compare with selected' }).click();
  await expect(second.getByRole('table', { name: 'Reserved across both branches' }).getByRole('row', { name: /marigold-french/ })).toContainText('6');
});
