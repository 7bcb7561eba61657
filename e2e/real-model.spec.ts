import { expect, test } from '@playwright/test';
import { lastRevisionSeen, scriptProvider } from './modelProvider';
import { openPlayground, run, confirmDialog } from './support';

test('smoke: a careful scripted model queries, then reserves with the revision it read', async ({ page }) => {
  const requests = await scriptProvider(page, (request, index) => {
    if (index === 0) return { text: 'I will look first.', calls: [{ args: { op: 'query' } }] };
    if (index === 1) return { calls: [{ args: { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: lastRevisionSeen(request) } }] };
    return { text: 'Reserved one bean-scarlet.' };
  });
  await openPlayground(page);
  await run(page, '/seeds agent on');
  await confirmDialog(page);
  await page.getByRole('tab', { name: 'Agents' }).click();
  await page.getByRole('button', { name: 'Set up a real model' }).click();
  await page.getByRole('textbox', { name: 'Model' }).fill('scripted');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status', { name: 'Connection status' })).toContainText('Connected');
  await page.getByRole('button', { name: 'Ask the model' }).click();
  await expect(page.getByRole('note', { name: 'How the request ended' })).toContainText('finished on its own after 2 tool calls');
  await expect(page.getByRole('group', { name: 'What the model saw' })).toHaveCount(2);
  console.log(JSON.stringify(requests[1]?.messages, null, 1).slice(0, 3000));
});
