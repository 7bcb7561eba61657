import { expect, test, type Page } from '@playwright/test';
import { grantAgent, openPlayground, openTool } from './support';

const result = (page: Page) => page.getByRole('region', { name: 'Refusal demo result' });

async function tryIt(page: Page, code: string): Promise<void> {
  await openTool(page, 'Refusals');
  await page.getByRole('button', { name: `Try it: ${code}` }).click();
  await expect(result(page)).toContainText(`${code}: refused as expected.`);
  // A refusal appends no seed desk entry: the counts before and after are equal.
  const counts = await result(page).getByLabel('Seed desk entries before and after').textContent();
  const match = /Seed desk entries: (\d+) before, (\d+) after/.exec(counts ?? '');
  expect(match, `counts for ${code}`).not.toBeNull();
  expect(match?.[1]).toBe(match?.[2]);
}

test('every refusal code is met from the current state and appends no seed desk entry (agent off)', async ({ page }) => {
  await openPlayground(page);
  for (const code of ['agent-disabled', 'stale-revision', 'invalid-target', 'invalid-quantity', 'insufficient-availability', 'insufficient-reservation', 'ui-required', 'corrupt-state']) {
    await tryIt(page, code);
  }
  await expect(result(page)).toContainText('invalid snapshot');
});

test('with the agent on, stale-revision and invalid-quantity come through the tool', async ({ page }) => {
  await openPlayground(page);
  await grantAgent(page);
  await tryIt(page, 'stale-revision');
  await expect(result(page)).toContainText('seed_desk {"op":"act"');
  await tryIt(page, 'invalid-quantity');
  await expect(result(page).getByRole('listitem')).toHaveCount(4);
  await openTool(page, 'Refusals');
  await page.getByRole('button', { name: 'Try it: agent-disabled' }).click();
  await expect(result(page)).toContainText('The agent is on in this branch');
});
