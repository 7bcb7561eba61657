import { expect, test, type Page } from '@playwright/test';
import { callTool, confirmDialog, dialog, expectDesk, openPlayground, openTool, output, run, tree } from './support';

/**
 * Issue 12: one message from the page to its worker per user action. Every `postMessage` the page
 * makes to a worker is counted from before the app starts; each action below must cost exactly one
 * (Cancel: none), and what it changed must already be on screen when its one answer is in.
 */
const COUNT_POSTS = `(() => {
  const post = Worker.prototype.postMessage;
  window.__posts = [];
  Worker.prototype.postMessage = function (message, ...rest) {
    window.__posts.push(message && message.body ? message.body.type : 'other');
    return post.call(this, message, ...rest);
  };
})()`;

const posts = (page: Page) => page.evaluate(() => [...(window as unknown as { __posts: string[] }).__posts]);

/** Runs `action` and returns the request types it sent; waits until the page is quiet first and after. */
async function sent(page: Page, action: () => Promise<void>): Promise<string[]> {
  const before = (await posts(page)).length;
  await action();
  return (await posts(page)).slice(before);
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(COUNT_POSTS);
  await openPlayground(page);
  // The page's first message opens the session with the first screen's watches; a panel shown
  // besides them subscribes once (`watch`); nothing else is sent before the learner acts.
  await expect.poll(async () => (await posts(page))[0]).toBe('hello');
  expect((await posts(page)).slice(1).every((type) => type === 'watch')).toBe(true);
});

test('Enter, Confirm and Cancel: one message each, and no follow-up requests', async ({ page }) => {
  expect(
    await sent(page, async () => {
      await run(page, '/seeds query');
      await expect(output(page)).toContainText('revision:');
    }),
  ).toEqual(['line']);

  expect(
    await sent(page, async () => {
      await run(page, '/seeds reserve basil-genovese 2');
      await expect(dialog(page)).toBeVisible();
    }),
  ).toEqual(['line']);
  expect(
    await sent(page, async () => {
      await confirmDialog(page);
      // The desk, the conversation and the graph are current once the one answer is in.
      await expectDesk(page, 'basil-genovese', 6, 2);
      await expect(tree(page).getByRole('treeitem').filter({ hasText: 'basil-genovese 2' })).toHaveCount(1);
    }),
  ).toEqual(['answerUi']);

  expect(
    await sent(page, async () => {
      await run(page, '/seeds release basil-genovese 1');
      await expect(dialog(page)).toBeVisible();
      await dialog(page).getByRole('button', { name: 'Cancel' }).click();
      await expect(output(page)).toContainText('Cancelled');
    }),
    // Cancel answers the extension's `await ctx.ui.confirm` with false: its handler goes on and says so itself.
  ).toEqual(['line', 'answerUi']);
});

test('a tool call, an approval answer and a tree action: one message each', async ({ page }) => {
  await openTool(page, 'Tool call');
  const afterOpen = (await posts(page)).filter((type) => type !== 'hello' && type !== 'watch');
  expect(afterOpen).toEqual([]);
  expect(
    await sent(page, async () => {
      await callTool(page, { op: 'query' });
      await expect(page.getByRole('region', { name: 'Text the model sees' })).toContainText('revision:');
    }),
  ).toEqual(['toolCall']);

  await page.getByRole('radiogroup', { name: 'Approval mode' }).getByRole('radio', { name: 'always-ask' }).check();
  expect(
    await sent(page, async () => {
      await callTool(page, { op: 'query' });
      await expect(page.getByRole('dialog')).toBeVisible();
    }),
  ).toEqual(['toolCall']);
  expect(
    await sent(page, async () => {
      await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByRole('dialog')).toBeHidden();
      await expect(page.getByRole('region', { name: 'Text the model sees' })).toContainText('revision:');
    }),
  ).toEqual(['answerApproval']);

  await run(page, 'a first message');
  await run(page, 'a second message');
  await expect(tree(page).getByRole('treeitem').filter({ hasText: '← leaf' })).toContainText('a second message');
  expect(
    await sent(page, async () => {
      await tree(page).getByRole('treeitem').filter({ hasText: 'a first message' }).click();
      await page.getByRole('button', { name: 'Branch from here' }).click();
      await expect(page.getByRole('status', { name: 'Status line' })).toBeVisible();
      // The host's rule for a user message: the leaf goes to its parent (the approved call's result).
      await expect(tree(page).getByRole('treeitem').filter({ hasText: '← leaf' })).toContainText('tool result');
    }),
  ).toEqual(['navigate']);
});

test('an import: one message, with its progress pushed and the session list updated in the answer', async ({ page }) => {
  await openTool(page, 'Sessions');
  const jsonl = [
    JSON.stringify({ type: 'session', version: 3, id: '0b7e4d2c-1f7a-4b5e-9c3d-2a1b0c9d8e7f', timestamp: '2026-12-01T10:00:00.000Z', cwd: '/import' }),
    JSON.stringify({ type: 'message', id: 'aa000001', parentId: null, timestamp: '2026-12-01T10:00:01.000Z', message: { role: 'user', content: 'imported hello' } }),
  ].join('\n');
  expect(
    await sent(page, async () => {
      await page.getByLabel('Import session').setInputFiles({ name: 'one.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(`${jsonl}\n`) });
      await expect(page.getByRole('region', { name: 'Import report' })).toContainText('Imported 1 entries');
      await expect(page.getByRole('list', { name: 'Session list' })).toContainText('0b7e4d2c');
    }),
  ).toEqual(['importSession']);
});
