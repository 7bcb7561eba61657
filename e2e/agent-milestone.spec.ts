import { expect, test } from '@playwright/test';
import { callTool, confirmDialog, dialog, expectDesk, grantAgent, journalLineCount, latestRevision, openPlayground, run, toolDetails, toolText, openTool } from './support';

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
});

test('after the grant, discover, query and inspect answer, and act returns a new revision', async ({ page }) => {
  await grantAgent(page);
  await callTool(page, { op: 'discover' });
  await expect(toolText(page)).toContainText('seed_desk operations: discover, query, inspect, act.');
  await callTool(page, { op: 'query' });
  await expect(toolText(page)).toContainText('bean-scarlet: 5 available, 0 reserved');
  const queried = await latestRevision(page);
  await callTool(page, { op: 'inspect', id: 'basil-genovese' });
  await expect(toolText(page)).toContainText('Genovese basil (basil-genovese, family basil): 8 available, 0 reserved of 8');

  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: queried });
  await expect(toolText(page)).toContainText('Reserved 1 bean-scarlet.');
  const acted = await latestRevision(page);
  expect(acted).not.toBe(queried);
  await expectDesk(page, 'bean-scarlet', 4, 1);

  // Reusing the old revision is a refusal, not a second reservation.
  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: queried });
  await expect(toolText(page)).toContainText('Refused (stale-revision)');
  await expect(toolDetails(page)).toContainText('"ok": false');
  await expectDesk(page, 'bean-scarlet', 4, 1);
});

test('the tool call is recorded as the host records it: an assistant toolCall, then a toolResult', async ({ page }) => {
  await grantAgent(page);
  const before = await journalLineCount(page);
  await callTool(page, { op: 'query' });
  await expect.poll(() => journalLineCount(page)).toBe(before + 2);
  const lines = page.getByRole('list', { name: 'Journal lines' }).getByRole('listitem');
  await expect(lines.nth(-2)).toContainText('"type":"toolCall"');
  await expect(lines.nth(-1)).toContainText('"role":"toolResult"');
  await expect(lines.nth(-1)).toContainText('"isError":false');
});

test('without the grant, act is refused with agent-disabled and nothing changes', async ({ page }) => {
  await callTool(page, { op: 'query' });
  const revision = await latestRevision(page);
  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision });
  await expect(toolText(page)).toContainText('Refused (agent-disabled)');
  await expectDesk(page, 'bean-scarlet', 5, 0);
});

test('malformed arguments are a host validation error; with the schema check skipped the domain refuses them itself', async ({ page }) => {
  await grantAgent(page);
  // The host repairs what it can ("2" → 2, 7 → "7"); a count that is no number at all it cannot.
  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 'two', expectedRevision: 'x' });
  await expect(toolText(page)).toContainText('Validation failed for tool "seed_desk"');
  await expect(page.getByText('host validation error')).toBeVisible();
  await expect(page.getByText('isError: true')).toBeVisible();

  await openTool(page, 'Tool call');
  await page.getByRole('checkbox', { name: "Skip the host's schema check" }).check();
  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 'two', expectedRevision: 'x' });
  await expect(toolText(page)).toContainText('Refused (invalid-quantity)');
  await expect(toolDetails(page)).toContainText('"code": "invalid-quantity"');
});

test('a field the op needs passes the flat schema and is stopped by the tool\'s own check, whose text names it; nothing changes', async ({ page }) => {
  await grantAgent(page);
  await callTool(page, { op: 'query' });
  const revision = await latestRevision(page);
  const before = await journalLineCount(page);
  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 });
  await expect(toolText(page)).toHaveText('seed_desk act is missing expectedRevision: act needs action, id, packets and expectedRevision, nothing else. Nothing was changed.');
  // Not the host's validation: the seed desk tool's own code threw, so the result is an error without details.
  await expect(page.getByText('host validation error')).toBeHidden();
  await expect(page.getByText('isError: true')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Rendered result' })).toHaveText('✗ an error from the tool');
  await expect(toolDetails(page)).toContainText('(none: a thrown or blocked call has no details)');
  // A toolCall and its toolResult, no seed desk entry; the desk is as it was.
  await expect.poll(() => journalLineCount(page)).toBe(before + 2);
  await expectDesk(page, 'bean-scarlet', 5, 0);

  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision });
  await expect(toolText(page)).toContainText('Reserved 1 bean-scarlet.');
  await callTool(page, { op: 'discover', id: 'bean-scarlet' });
  await expect(toolText(page)).toHaveText('seed_desk discover does not take id: discover takes no other field. Nothing was changed.');
});

test('host approval prompt: Approve lets the call through, Deny blocks it as a tool error', async ({ page }) => {
  await grantAgent(page);
  await openTool(page, 'Tool call');
  await page.getByRole('combobox', { name: 'Host approval for seed_desk' }).selectOption('prompt');
  await callTool(page, { op: 'query' });
  const approval = page.getByRole('dialog', { name: 'Host approval: seed_desk' });
  await expect(approval).toContainText('Allow tool: seed_desk');
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(toolText(page)).toContainText('bean-scarlet: 5 available, 0 reserved');
  const revision = await latestRevision(page);

  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision });
  await approval.getByRole('button', { name: 'Deny' }).click();
  await expect(toolText(page)).toContainText('Tool call denied by user: seed_desk');
  await expectDesk(page, 'bean-scarlet', 5, 0);
});

test('deny policy blocks the call before the domain runs', async ({ page }) => {
  await grantAgent(page);
  await openTool(page, 'Tool call');
  await page.getByRole('combobox', { name: 'Host approval for seed_desk' }).selectOption('deny');
  await callTool(page, { op: 'query' });
  await expect(toolText(page)).toContainText('Tool "seed_desk" is blocked by user policy.');
  await expect(toolDetails(page)).toContainText('(none: a thrown or blocked call has no details)');
});

test('headless with a persisted grant: act works under allow and fails closed under prompt', async ({ page }) => {
  await grantAgent(page);
  await callTool(page, { op: 'query' });
  const revision = await latestRevision(page);
  await page.getByRole('checkbox', { name: 'Interactive UI' }).uncheck();
  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision });
  await expect(toolText(page)).toContainText('Reserved 1 bean-scarlet.');

  await openTool(page, 'Tool call');
  await page.getByRole('combobox', { name: 'Host approval for seed_desk' }).selectOption('prompt');
  await openTool(page, 'Tool call');
  await page.getByRole('button', { name: 'Use latest revision' }).click();
  await openTool(page, 'Tool call');
  await page.getByRole('button', { name: 'Call seed_desk' }).click();
  await expect(toolText(page)).toContainText('Tool "seed_desk" requires approval but no interactive UI available.');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectDesk(page, 'bean-scarlet', 4, 1);
});

test('revoking deliberately: agent off needs a confirmation, then act is refused with agent-disabled', async ({ page }) => {
  await grantAgent(page);
  await run(page, '/seeds agent off');
  await expect(dialog(page)).toContainText('no longer be able to reserve or release');
  await confirmDialog(page);
  await expect(page.getByRole('status', { name: 'Status line' })).toContainText('agent off');
  await callTool(page, { op: 'query' });
  const revision = await latestRevision(page);
  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision });
  await expect(toolText(page)).toContainText('Refused (agent-disabled)');
  await expectDesk(page, 'bean-scarlet', 5, 0);
  // Grant and revoke each appended one snapshot; the refused act appended none.
  await openTool(page, 'Journal');
  await page.getByRole('textbox', { name: 'Filter journal' }).fill('"customType":"seed-desk-state-v1"');
  await openTool(page, 'Journal');
  await expect(page.getByRole('list', { name: 'Journal lines' }).getByRole('listitem')).toHaveCount(2);
});
