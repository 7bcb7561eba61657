import { expect, test, type Page } from '@playwright/test';
import { callTool, confirmDialog, expectDesk, grantAgent, latestRevision, openPlayground, openTool } from './support';

const transcript = (page: Page) => page.getByRole('list', { name: 'Agent transcript' });

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
  await grantAgent(page);
});

test('the careful agent queries, acts with the returned revision, and ends with one bean reserved', async ({ page }) => {
  await openTool(page, 'Agents');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(transcript(page).getByRole('listitem')).toHaveCount(1);
  await expect(transcript(page)).toContainText('seed_desk {"op":"query"}');
  await openTool(page, 'Agents');
  await page.getByRole('button', { name: 'Run to end' }).click();
  await openTool(page, 'Agents');
  await expect(page.getByRole('note', { name: 'Agent summary' })).toBeVisible();
  await expect(transcript(page).getByRole('listitem')).toHaveCount(2);
  await expect(transcript(page)).toContainText('Reserved 1 bean-scarlet.');
  await expectDesk(page, 'bean-scarlet', 4, 1);
  // No blind retry: exactly one act.
  await expect(transcript(page).getByText(/"op":"act"/)).toHaveCount(1);
});

test('the careless agent retries blindly with an old revision and its refusals are shown', async ({ page }) => {
  await openTool(page, 'Agents');
  await page.getByRole('combobox', { name: 'Scripted agent' }).selectOption('careless');
  await openTool(page, 'Agents');
  await page.getByRole('button', { name: 'Run to end' }).click();
  await openTool(page, 'Agents');
  await expect(page.getByRole('note', { name: 'Agent summary' })).toBeVisible();
  await expect(transcript(page).getByText('Refused (stale-revision)')).toHaveCount(2);
  await expectDesk(page, 'bean-scarlet', 4, 1);
});

test('the careful agent meets a stale revision when the human changes the desk between its steps, and queries again', async ({ page }) => {
  await openTool(page, 'Agents');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(transcript(page).getByRole('listitem')).toHaveCount(1);
  // The human reserves basil after the agent's query: the agent's revision is now old.
  const command = page.getByRole('textbox', { name: 'Command' });
  await command.fill('/seeds reserve basil-genovese 1');
  await command.press('Enter');
  await confirmDialog(page);
  await openTool(page, 'Agents');
  await page.getByRole('button', { name: 'Run to end' }).click();
  await openTool(page, 'Agents');
  await expect(page.getByRole('note', { name: 'Agent summary' })).toBeVisible();
  await expect(transcript(page)).toContainText('Refused (stale-revision)');
  await expect(transcript(page).getByText('seed_desk {"op":"query"}')).toHaveCount(2);
  await expectDesk(page, 'bean-scarlet', 4, 1);
});

// Issue 36: lesson 2's last step asks an agent for the whole sequence; the same two calls made by
// hand in the Tool call tab do not tick it, and the step says why. The careful agent then does.
test('"Ask for the whole sequence": the calls made by hand do not tick; the careful agent\'s run does', async ({ page }) => {
  const checkpoint = page.getByRole('status', { name: 'Checkpoint' });
  await page.goto('/#/lesson/2/step/10');
  await expect(page.getByRole('heading', { name: /^Step 10: Ask for the whole sequence/ })).toBeVisible();
  await callTool(page, { op: 'query' });
  const revision = await latestRevision(page);
  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision });
  await expectDesk(page, 'bean-scarlet', 4, 1);
  await expect(checkpoint).toContainText('Not yet');
  await expect(checkpoint).toContainText('made by hand in the Tool call tab');
  await openTool(page, 'Agents');
  await page.getByRole('combobox', { name: 'Scripted agent' }).selectOption('careful');
  await page.getByRole('button', { name: 'Run to end' }).click();
  await expect(checkpoint).toHaveText('✓ Checkpoint reached.');
  await expectDesk(page, 'bean-scarlet', 3, 2);
});

// Issue 36: lesson 2's "Refused? Look again first" watches an agent meet a refusal; the agent's part
// played by hand in the Tool call tab (query, your basil, a stale act, a fresh query and act) does not tick it.
test('"Refused? Look again first": the agent\'s part played by hand does not tick, and says why', async ({ page }) => {
  const checkpoint = page.getByRole('status', { name: 'Checkpoint' });
  const details = page.getByRole('region', { name: 'Structured details' });
  await page.goto('/#/lesson/2/step/9');
  await expect(page.getByRole('heading', { name: /^Step 9: Refused\? Look again first/ })).toBeVisible();
  await callTool(page, { op: 'query' });
  await expect(details).toContainText('"scope": "query"');
  const old = await latestRevision(page);
  const command = page.getByRole('textbox', { name: 'Command' });
  await command.fill('/seeds reserve basil-genovese 1');
  await command.press('Enter');
  await confirmDialog(page);
  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: old });
  await expect(details).toContainText('stale-revision');
  await callTool(page, { op: 'query' });
  await expect(details).toContainText('"scope": "query"');
  const fresh = await latestRevision(page);
  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: fresh });
  await expectDesk(page, 'bean-scarlet', 4, 1);
  await expect(checkpoint).toContainText('Not yet');
  await expect(checkpoint).toContainText('made by hand in the Tool call tab');
});
