import { expect, test, type Page } from '@playwright/test';
import { branchFromItem, callTool, confirmDialog, dialog, expectDesk, openPlayground, output, run, toolDetails, toolText, openTool } from './support';

/**
 * Issue 11, "The lesson, exactly": each lesson behaviour a learner can observe, done as a learner
 * does it — through the lesson pane, the command line, the tool panel and the session controls.
 */

const checkpoint = (page: Page) => page.getByRole('status', { name: 'Checkpoint' });
const REACHED = '✓ Checkpoint reached.';

async function resetLesson(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Reset lesson' }).click();
  await expect(page.getByRole('region', { name: /^Step \d+:/ })).toHaveAttribute('aria-busy', 'false');
}

/** Opens lesson `lesson` reset, and lets "Do it for me" do steps 1..`through`, stopping on step `through + 1`. */
async function prepareLesson(page: Page, lesson: number, through: number): Promise<void> {
  await openPlayground(page);
  await page.goto(`/#/lesson/${lesson}/step/1`);
  await resetLesson(page);
  for (let step = 1; step <= through; step++) {
    await expect(page.getByRole('heading', { name: new RegExp(`^Step ${step}:`) })).toBeVisible();
    await page.getByRole('button', { name: 'Do it for me' }).click();
    await expect(checkpoint(page), `lesson ${lesson} step ${step}`).toHaveText(REACHED, { timeout: 15_000 });
    await page.getByRole('button', { name: 'Next step' }).click();
  }
  await expect(page.getByRole('heading', { name: new RegExp(`^Step ${through + 1}:`) })).toBeVisible();
  await expect(checkpoint(page)).toContainText('Not yet');
}

/** Seed desk entries in the journal, read from the Journal panel with its seed desk filter. */
async function seedDeskLines(page: Page): Promise<number> {
  await openTool(page, 'Journal');
  await page.getByRole('button', { name: 'Only seed desk entries' }).click();
  const journal = page.getByRole('region', { name: 'Journal', exact: true });
  await expect(journal).toHaveAttribute('aria-busy', 'false');
  const lines = page.getByRole('list', { name: 'Journal lines' }).getByRole('listitem');
  const empty = await lines.filter({ hasText: 'No line contains this text.' }).count();
  return empty > 0 ? 0 : lines.count();
}

async function useLatestRevisionAndCall(page: Page, args: Record<string, unknown>): Promise<void> {
  await openTool(page, 'Tool call');
  await page.getByRole('textbox', { name: 'Tool arguments' }).fill(JSON.stringify(args));
  await openTool(page, 'Tool call');
  await page.getByRole('button', { name: 'Use latest revision' }).click();
  await openTool(page, 'Tool call');
  await page.getByRole('button', { name: 'Call seed_desk' }).click();
}

test('lesson 1, "Do it for me" and "Next step" through every step: the exercise ends with basil 6/2 and bean 5/0, a new session on the starting desk', async ({ page }) => {
  test.setTimeout(90_000);
  await openPlayground(page);
  await page.goto('/#/lesson/1/step/1');
  await resetLesson(page);
  const steps = page.getByRole('list', { name: 'Steps' }).getByRole('listitem');
  const count = await steps.count();
  for (let step = 1; step <= count; step++) {
    await page.getByRole('button', { name: 'Do it for me' }).click();
    await expect(checkpoint(page), `step ${step}`).toHaveText(REACHED, { timeout: 15_000 });
    if (step === 5) {
      await expect(page.getByRole('heading', { name: /Exercise: reserve two, cancel a release/ })).toBeVisible();
      await expectDesk(page, 'basil-genovese', 6, 2);
      await expectDesk(page, 'bean-scarlet', 5, 0);
    }
    if (step < count) await page.getByRole('button', { name: 'Next step' }).click();
  }
  await expect(page.getByRole('heading', { name: /Nothing but the journal/ })).toBeVisible();
  await expectDesk(page, 'basil-genovese', 8, 0);
  await expectDesk(page, 'marigold-french', 3, 0);
});

test('lesson 1 race: a tree move while the bean dialog waits makes Confirm stale; bean stays 0, basil is never written, no entry added', async ({ page }) => {
  await prepareLesson(page, 1, 3);
  const before = await seedDeskLines(page);
  await run(page, '/seeds reserve bean-scarlet 2');
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).getByRole('button', { name: /Meanwhile: reserve 1 basil/ })).toHaveCount(0);
  await dialog(page).getByRole('button', { name: 'Meanwhile: move to the previous entry' }).click();
  await confirmDialog(page);
  await expect(output(page)).toContainText('Refused (stale-revision)');
  await expect(checkpoint(page)).toHaveText(REACHED);
  await expectDesk(page, 'bean-scarlet', 5, 0);
  expect(await seedDeskLines(page)).toBe(before);

  // The exercise on the fresh point: exactly 6/2 after reserving two and cancelling a release.
  await page.getByRole('button', { name: 'Next step' }).click();
  await run(page, '/seeds reserve basil-genovese 2');
  await confirmDialog(page);
  await run(page, '/seeds release basil-genovese 1');
  await dialog(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(checkpoint(page)).toHaveText(REACHED);
  await expectDesk(page, 'basil-genovese', 6, 2);
});

test('agent-disabled is met through seed_desk before the grant and after the revoke, and writes nothing', async ({ page }) => {
  await prepareLesson(page, 2, 0);
  await expect(page.getByRole('heading', { name: /Act before anyone allowed it/ })).toBeVisible();
  await callTool(page, { op: 'query' });
  await expect(toolDetails(page)).toContainText('"scope": "query"');
  await useLatestRevisionAndCall(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 });
  await expect(toolDetails(page)).toContainText('"code": "agent-disabled"');
  await expect(checkpoint(page)).toHaveText(REACHED);
  expect(await seedDeskLines(page)).toBe(0);

  await page.goto('/#/lesson/6/step/1');
  await resetLesson(page);
  await page.getByRole('button', { name: 'Do it for me' }).click();
  await expect(checkpoint(page)).toHaveText(REACHED, { timeout: 15_000 });
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByRole('heading', { name: /The revoked agent is turned away/ })).toBeVisible();
  const before = await seedDeskLines(page);
  await callTool(page, { op: 'query' });
  await expect(toolDetails(page)).toContainText('"agentEnabled": false');
  await useLatestRevisionAndCall(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 });
  await expect(toolDetails(page)).toContainText('"code": "agent-disabled"');
  await expect(checkpoint(page)).toHaveText(REACHED);
  expect(await seedDeskLines(page)).toBe(before);
});

test('an excess release is refused through the tool and through /seeds, with insufficient-reservation and no new entry', async ({ page }) => {
  test.setTimeout(150_000);
  await prepareLesson(page, 3, 3);
  await expect(page.getByRole('heading', { name: /Give back more than you hold/ })).toBeVisible();
  const before = await seedDeskLines(page);
  await useLatestRevisionAndCall(page, { op: 'act', action: 'release', id: 'bean-scarlet', packets: 2 });
  await expect(toolDetails(page)).toContainText('"code": "insufficient-reservation"');
  await run(page, '/seeds release bean-scarlet 2');
  await expect(output(page)).toContainText('Refused (insufficient-reservation)');
  await expect(dialog(page)).toBeHidden();
  await expect(checkpoint(page)).toHaveText(REACHED);
  await expectDesk(page, 'bean-scarlet', 4, 1);
  expect(await seedDeskLines(page)).toBe(before);
});

test('headless revocation: /seeds agent off without a UI is refused with ui-required and the grant stays on', async ({ page }) => {
  test.setTimeout(90_000);
  await prepareLesson(page, 6, 4);
  await expect(page.getByRole('heading', { name: /No screen, no revoke either/ })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Interactive UI' })).not.toBeChecked();
  const before = await seedDeskLines(page);
  await run(page, '/seeds agent off');
  await expect(output(page)).toContainText('Refused (ui-required)');
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByRole('status', { name: 'Status line' })).toContainText('agent on');
  await expect(checkpoint(page)).toHaveText(REACHED);
  expect(await seedDeskLines(page)).toBe(before);
});

test('after an agent turn, closing appends session_exit under the leaf: a written branch and a plain move both reopen where they stood', async ({ page }) => {
  test.setTimeout(120_000);
  await prepareLesson(page, 5, 4);
  await expect(page.getByRole('heading', { name: /A branch you wrote into is kept/ })).toBeVisible();
  await expectDesk(page, 'basil-genovese', 7, 1);
  await page.getByRole('button', { name: 'Reopen session' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'session_exit' })).toBeVisible();
  await expectDesk(page, 'basil-genovese', 7, 1);
  await expect(checkpoint(page)).toHaveText(REACHED);

  // Step 6 (the sibling's revision), then the plain move: kept by the exit entry, not by the move.
  await page.getByRole('button', { name: 'Next step' }).click();
  await page.getByRole('button', { name: 'Do it for me' }).click();
  await expect(checkpoint(page), 'step 6').toHaveText(REACHED, { timeout: 15_000 });
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByRole('heading', { name: /A move, then a reopen/ })).toBeVisible();
  await branchFromItem(page, 'nothing reserved · agent on');
  await expectDesk(page, 'basil-genovese', 8, 0);
  await page.getByRole('button', { name: 'Reopen session' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'not your move' })).toBeVisible();
  await expectDesk(page, 'basil-genovese', 8, 0);
  await run(page, '/seeds query');
  await expect(checkpoint(page)).toHaveText(REACHED);
});

test('the reopen and reload notices name another tab when its append moved the last entry', async ({ page, context }) => {
  await openPlayground(page);
  await run(page, '/seeds reserve bean-scarlet 1');
  await confirmDialog(page);
  const other = await context.newPage();
  await openPlayground(other);
  await run(other, 'a note from the other tab');
  await expect(other.getByRole('list', { name: 'Active branch' })).toContainText('a note from the other tab');
  // The other tab's append reaches this tab's tree; this tab's leaf stays on its own entry.
  await expect(page.getByRole('tree', { name: 'Session tree' })).toContainText('a note from the other tab');
  // Back to the first tab, as a person would before using it (a tab behind another barely draws).
  await page.bringToFront();
  await page.getByRole('button', { name: 'Reopen session' }).click();
  const notice = page.getByRole('note').filter({ hasText: 'Another tab appended' });
  await expect(notice).toBeVisible();
  await expect(notice).not.toContainText('appended nothing');
  await expect(page.getByRole('list', { name: 'Active branch' })).toContainText('a note from the other tab');

  // The same reason after a reload, when the other tab appends again while this one stands still.
  await run(other, 'and one more');
  await expect(page.getByRole('tree', { name: 'Session tree' })).toContainText('and one more');
  await page.reload();
  await expect(page.getByRole('note').filter({ hasText: /After the reload.*Another tab appended/ })).toBeVisible();
  await other.close();
});

test('host approval as the host resolves it: "not set" and yolo by default; always-ask prompts, headless fails closed; write runs; deny blocks', async ({ page }) => {
  await openPlayground(page);
  const policy = page.getByRole('combobox', { name: 'Host approval for seed_desk' });
  const mode = page.getByRole('radiogroup', { name: 'Approval mode' });
  await expect(policy).toHaveValue('');
  await expect(policy.locator('option:checked')).toHaveText('not set');
  await expect(mode.getByRole('radio', { name: 'yolo' })).toBeChecked();

  await callTool(page, { op: 'query' });
  await expect(toolDetails(page)).toContainText('"ok": true');
  await expect(page.getByText('host approval: allow (approval mode yolo, tier write)')).toBeVisible();

  await mode.getByRole('radio', { name: 'always-ask' }).check();
  await callTool(page, { op: 'query' });
  const prompt = page.getByRole('dialog', { name: 'Host approval: seed_desk' });
  await expect(prompt).toContainText('Allow tool: seed_desk');
  await prompt.getByRole('button', { name: 'Deny' }).click();
  await expect(toolText(page)).toHaveText('Tool call denied by user: seed_desk');

  await page.getByRole('checkbox', { name: 'Interactive UI' }).uncheck();
  await callTool(page, { op: 'query' });
  await expect(toolText(page)).toContainText('Tool "seed_desk" requires approval but no interactive UI available.');

  await mode.getByRole('radio', { name: 'write' }).check();
  await callTool(page, { op: 'query' });
  await expect(toolDetails(page)).toContainText('"scope": "query"');

  await policy.selectOption('deny');
  await callTool(page, { op: 'query' });
  await expect(toolText(page)).toContainText('Tool "seed_desk" is blocked by user policy.');
  await policy.selectOption('allow');
  await mode.getByRole('radio', { name: 'always-ask' }).check();
  await callTool(page, { op: 'query' });
  await expect(toolDetails(page)).toContainText('"scope": "query"');
});

test('a lesson step shows the approval mode stopping a call the agent grant would allow', async ({ page }) => {
  test.setTimeout(150_000);
  await prepareLesson(page, 4, 0);
  await expect(page.getByRole('heading', { name: /Mode and grant are different gates/ })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Status line' })).toContainText('agent on');
  await callTool(page, { op: 'query' });
  await page.getByRole('radiogroup', { name: 'Approval mode' }).getByRole('radio', { name: 'always-ask' }).check();
  await useLatestRevisionAndCall(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 });
  const prompt = page.getByRole('dialog', { name: 'Host approval: seed_desk' });
  await prompt.getByRole('button', { name: 'Deny' }).click();
  await expect(toolText(page)).toHaveText('Tool call denied by user: seed_desk');
  await expect(checkpoint(page)).toHaveText(REACHED);
});

test('persistence gate and presentation limits: each note has a step that shows it', async ({ page }) => {
  test.setTimeout(120_000);
  await prepareLesson(page, 7, 0);

  // appendEntry: outside the model-visible conversation.
  await run(page, '/seeds reserve marigold-french 1');
  await confirmDialog(page);
  const branch = page.getByRole('list', { name: 'Active branch' });
  await expect(branch.getByRole('listitem').last()).toContainText('not sent to the model');
  await expect(checkpoint(page)).toHaveText(REACHED);

  // The persistence gate: no host file before the first assistant message.
  await page.getByRole('button', { name: 'Next step' }).click();
  const hostFile = page.getByLabel('Host file');
  await expect(hostFile).toContainText('not written yet');
  await callTool(page, { op: 'query' });
  await expect(hostFile).toContainText('Host file: written');
  await expect(branch.getByRole('listitem').filter({ hasText: 'assistant' }).first()).not.toContainText('not sent to the model');
  await expect(checkpoint(page)).toHaveText(REACHED);

  // No receipt, no power-loss promise: the step's own question.
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByRole('heading', { name: /Written, but not promised/ })).toBeVisible();
  await page.getByRole('group', { name: 'Your answer' }).getByRole('button', { name: 'No', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Explanation' })).toContainText('no fsync');
  await expect(checkpoint(page)).toHaveText(REACHED);

  // renderResult: presentation only; do not assume the details reach the model (lesson 2, step 6).
  await page.goto('/#/lesson/2/step/6');
  await expect(page.getByRole('heading', { name: /What a picture of the result is not/ })).toBeVisible();
  await callTool(page, { op: 'inspect', id: 'marigold-french' });
  await expect(page.getByRole('region', { name: 'Rendered result' })).toContainText('✓ inspect');
  await expect(page.getByText('Do not assume these reach the model')).toBeVisible();
  await expect(checkpoint(page)).toHaveText(REACHED);

  // Approval gates stop tool calls, not other extension code (lesson 4, step 3).
  await page.goto('/#/lesson/4/step/3');
  await expect(page.getByRole('heading', { name: /A blocked tool is not a stopped extension/ })).toBeVisible();
  await openTool(page, 'Tool call');
  await page.getByRole('combobox', { name: 'Host approval for seed_desk' }).selectOption('deny');
  await callTool(page, { op: 'query' });
  await expect(toolText(page)).toContainText('blocked by user policy');
  await run(page, '/seeds reserve marigold-french 1');
  await confirmDialog(page);
  await expect(output(page)).toContainText('marigold-french: 1 available, 2 reserved');
  await expect(checkpoint(page)).toHaveText(REACHED);
});

test('the closing question keeps its answer until Yes or No is picked, then explains in a region named "Explanation"', async ({ page }) => {
  await openPlayground(page);
  await page.goto('/#/lesson/8/step/5');
  await expect(page.getByRole('heading', { name: /^Step 5: The closing question/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Explanation' })).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText('authoritative');
  await expect(page.getByRole('article', { name: /^Lesson 8/ })).not.toContainText(/\bNo\./);
  await page.getByRole('group', { name: 'Your answer' }).getByRole('button', { name: 'Yes' }).click();
  const explanation = page.getByRole('region', { name: 'Explanation' });
  await expect(explanation).toBeVisible();
  await expect(explanation).toContainText('the answer is no');
  await expect(explanation).toContainText('authoritative');
  await expect(explanation).toContainText('a durable identity for each request');
});
