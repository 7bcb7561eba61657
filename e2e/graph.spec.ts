import { expect, test } from '@playwright/test';
import { confirmReservation, openPlayground, openTool, revisionText, run, tree } from './support';

/**
 * Issue 13: the session drawn as a commit graph. A sibling branch takes its own lane (`data-lane`,
 * 0 = leftmost); selecting a node offers branch, compare and fork; comparing puts both branches
 * side by side in the centre region, within the window, at both window sizes.
 */
for (const size of [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
]) {
  test.describe(`${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('a sibling branch is drawn in its own lane, and comparing shows both branches side by side within the window', async ({ page }) => {
      await openPlayground(page);
      await confirmReservation(page, '/seeds reserve basil-genovese 2');
      await run(page, 'first branch note');
      const items = tree(page).getByRole('treeitem');
      await expect(items.filter({ hasText: 'first branch note' })).toHaveCount(1);
      // Back to the reservation, and a sibling of the note from there.
      await items.filter({ hasText: 'basil-genovese +2' }).click();
      await page.getByRole('button', { name: 'Branch from here' }).click();
      await confirmReservation(page, '/seeds reserve bean-scarlet 1');
      const note = items.filter({ hasText: 'first branch note' });
      const sibling = items.filter({ hasText: 'bean-scarlet +1' });
      await expect(sibling).toHaveCount(1);
      const noteLane = Number(await note.getAttribute('data-lane'));
      const siblingLane = Number(await sibling.getAttribute('data-lane'));
      expect(noteLane).not.toBe(siblingLane);
      expect(Math.min(noteLane, siblingLane)).toBe(0);
      await expect(sibling).toContainText('← leaf');

      await note.click();
      await page.getByRole('button', { name: 'Compare with selected' }).click();
      const mine = page.getByRole('region', { name: 'This branch' });
      const other = page.getByRole('region', { name: 'Other branch' });
      await expect(mine).toBeVisible();
      await expect(other).toBeVisible();
      await expect(page.getByRole('table', { name: 'Reserved across both branches' })).toBeAttached();
      await expect(note).toContainText('compared');
      await expect(items.filter({ hasText: 'fork point' })).toContainText('basil-genovese +2');
      const a = await mine.boundingBox();
      const b = await other.boundingBox();
      if (!a || !b) throw new Error('the compare regions have no box');
      // Side by side: the other branch starts right of this one, on the same row, both inside the window.
      expect(b.x).toBeGreaterThanOrEqual(a.x + a.width - 1);
      expect(Math.abs(a.y - b.y)).toBeLessThan(4);
      for (const box of [a, b]) {
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(size.width);
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y).toBeLessThan(size.height);
      }
      expect(await page.evaluate(() => document.scrollingElement?.scrollHeight ?? 0)).toBeLessThanOrEqual(size.height);
    });
  });
}

test('"Fork from here" makes a new session holding the path to the selected node only', async ({ page }) => {
  await openPlayground(page);
  await run(page, 'kept in the fork');
  await run(page, 'left behind');
  const items = tree(page).getByRole('treeitem');
  await expect(items.filter({ hasText: 'left behind' })).toHaveCount(1);
  const before = await revisionText(page);
  await items.filter({ hasText: 'kept in the fork' }).click();
  await page.getByRole('button', { name: 'Fork from here' }).click();
  await expect(items.filter({ hasText: 'left behind' })).toHaveCount(0);
  await expect(items.filter({ hasText: 'kept in the fork' })).toHaveCount(1);
  await expect.poll(() => revisionText(page)).not.toBe(before);
  await openTool(page, 'Sessions');
  await expect(page.getByRole('list', { name: 'Session list' }).getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('list', { name: 'Session list' })).toContainText('forked from');
});

test('the filter folds hidden entries into the edges; keyboard: up/down in time, Enter branches', async ({ page }) => {
  await openPlayground(page);
  await run(page, 'a message');
  await confirmReservation(page, '/seeds reserve marigold-french 1');
  const items = tree(page).getByRole('treeitem');
  await expect(items).toHaveCount(2);
  await page.getByRole('radio', { name: 'seed desk' }).check();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText('marigold-french +1');
  await page.getByRole('radio', { name: 'all' }).check();
  await expect(items).toHaveCount(2);
  await items.filter({ hasText: 'marigold-french +1' }).click();
  await page.keyboard.press('ArrowUp');
  await expect(tree(page).getByRole('treeitem', { selected: true })).toContainText('a message');
  await page.keyboard.press('ArrowDown');
  await expect(tree(page).getByRole('treeitem', { selected: true })).toContainText('marigold-french +1');
});
