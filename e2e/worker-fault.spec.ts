import { expect, test, type Page } from '@playwright/test';
import { dialog, expectDesk, openPlayground, openTool, run } from './support';

/** Issue 28: faults only a browser can produce, each ending with a sentence and a page that still works. */
const LEASE = 'seed-desk-playground:writer-lease';

/** A page of the same origin takes the writer lease as a tab's worker would, and keeps it until it closes. */
async function holdLease(other: Page): Promise<void> {
  await other.goto('/favicon.svg');
  await other.evaluate(
    (lease) =>
      new Promise<void>((granted) => {
        new BroadcastChannel(lease).postMessage({ want: 'a-tab-that-holds-on' });
        void navigator.locks.request(lease, { mode: 'exclusive' }, () => {
          granted();
          return new Promise<void>(() => undefined);
        });
      }),
    LEASE,
  );
}

async function confirmByKeyboard(page: Page): Promise<void> {
  await expect(dialog(page).getByRole('button', { name: 'Confirm', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
}

test('the worker ends in the middle of a request: the page notices, starts a new worker, says so, and shows the journal as stored', { tag: '@fault' }, async ({ page, context }) => {
  test.setTimeout(90_000);
  await openPlayground(page);
  await run(page, '/seeds reserve basil-genovese 1');
  await confirmByKeyboard(page);
  await expectDesk(page, 'basil-genovese', 7, 1);

  // The next Confirm waits for the lease another page holds; then its worker ends, silently, as a crashed one does.
  const other = await context.newPage();
  await holdLease(other);
  await page.bringToFront();
  await run(page, '/seeds reserve basil-genovese 1');
  await confirmByKeyboard(page);
  await expect(page.getByRole('group', { name: 'Confirmation machine' })).toContainText('Confirmation state: committing');
  const [worker] = page.workers();
  await worker?.evaluate(() => (self as unknown as { close(): void }).close());
  await other.close();

  // 10 s until the page asks the worker what the Confirm waits for, 5 s for an answer that never comes.
  const restarted = page.getByRole('alert').filter({ hasText: 'The worker stopped answering' });
  await expect(restarted).toContainText('The worker stopped answering while your Confirm of its dialog waited, so the page started a new one.', { timeout: 25_000 });
  await expect(restarted).toContainText('It shows your journal as it was stored.');
  await expect(page.getByRole('group', { name: 'Confirmation machine' })).toContainText(/Confirmation state: (failed|committed|refused)/);
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByRole('status', { name: 'Request waiting' })).toHaveCount(0);
  // The commit never reached the store: the desk is the stored one, and the new worker commits.
  await expectDesk(page, 'basil-genovese', 7, 1);
  await run(page, '/seeds reserve basil-genovese 1');
  await confirmByKeyboard(page);
  await expect(page.getByRole('group', { name: 'Confirmation machine' })).toContainText('Confirmation state: committed');
  await expectDesk(page, 'basil-genovese', 6, 2);
  await page.reload();
  await expectDesk(page, 'basil-genovese', 6, 2);
});

test('no BroadcastChannel and no Web Locks: the page says two tabs are not supported here and works in one', { tag: '@fault' }, async ({ page }) => {
  await page.addInitScript(() => {
    delete (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel;
    Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined, configurable: true });
  });
  await openPlayground(page);
  await expect(page.getByRole('note', { name: 'One tab only' })).toHaveText(
    'This browser has no BroadcastChannel and no Web Locks, so two tabs of the playground are not supported here; it works in this one tab.',
  );
  await run(page, '/seeds reserve bean-scarlet 2');
  await confirmByKeyboard(page);
  await expect(page.getByRole('group', { name: 'Confirmation machine' })).toContainText('Confirmation state: committed');
  await expectDesk(page, 'bean-scarlet', 3, 2);
  await page.reload();
  await expectDesk(page, 'bean-scarlet', 3, 2);
});

test('site data cleared while the page is open: it says so in one sentence, refuses writes, and a new session starts clean', { tag: '@fault' }, async ({ page }) => {
  await openPlayground(page);
  await run(page, '/seeds reserve marigold-french 1');
  await confirmByKeyboard(page);
  await expectDesk(page, 'marigold-french', 2, 1);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(page.url()).origin, storageTypes: 'all' });
  const stopped = page.getByRole('alert').filter({ hasText: 'Writes are stopped' });
  await expect(stopped).toContainText(/storage was cleared|upgrading or deleting/);
  await expectDesk(page, 'marigold-french', 2, 1);
  // The stored session went with the site data: a reopen says so, and a new session starts clean.
  await page.getByRole('button', { name: 'Reopen session' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'no longer in the database' }).first()).toBeVisible();
  await openTool(page, 'Sessions');
  await page.getByRole('button', { name: 'New session', exact: true }).click();
  await expectDesk(page, 'marigold-french', 3, 0);
  await run(page, '/seeds reserve marigold-french 1');
  await confirmByKeyboard(page);
  await expect(page.getByRole('group', { name: 'Confirmation machine' })).toContainText('Confirmation state: committed');
  await expectDesk(page, 'marigold-french', 2, 1);
});
