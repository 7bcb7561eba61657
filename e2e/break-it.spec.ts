import { expect, test, type Page } from '@playwright/test';
import { callTool, confirmDialog, dialog, latestRevision, openPlayground, openTool, output, run } from './support';
import { replaceInEditor } from './typing';

// Issue 27, part 4: a mend step of "Break it" ticks only when the learner's own edited version,
// typed in the Code tab's editor, keeps the promise; "Back to the shipped extension" restores the
// shipped code and does not tick it.

const checkpoint = (page: Page) => page.getByRole('status', { name: 'Checkpoint' });
const codePanel = (page: Page) => page.getByRole('tabpanel', { name: 'Code', exact: true });
const yourVersion = (page: Page) => codePanel(page).getByRole('status', { name: 'Your version' });
const REACHED = '✓ Checkpoint reached.';

/** "Break it", reset, then every step before `step` (1-based) done by "Do it for me", as a learner catching up would. */
async function openBreakItAt(page: Page, step: number): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  await page.getByRole('navigation', { name: 'Lessons' }).getByRole('link', { name: /Break it to see why/ }).click();
  await page.getByRole('button', { name: 'Reset lesson' }).click();
  await expect(page.getByRole('region', { name: /^Step \d+:/ })).toHaveAttribute('aria-busy', 'false');
  for (let done = 1; done < step; done++) {
    await expect(page.getByRole('heading', { name: new RegExp(`^Step ${done}:`) })).toBeVisible();
    await page.getByRole('button', { name: 'Do it for me' }).click();
    await expect(checkpoint(page)).toHaveText(REACHED, { timeout: 90_000 });
    await page.getByRole('button', { name: 'Next step' }).click();
  }
  await expect(page.getByRole('heading', { name: new RegExp(`^Step ${step}:`) })).toBeVisible();
  await expect(checkpoint(page)).toContainText('Not yet');
}

/** In the Code tab's editor: the editor's own search selects the broken text and the mend is typed key by key (e2e/typing.ts). */
async function typeMend(page: Page, file: string, find: string, mend: string): Promise<void> {
  await openTool(page, 'Code');
  const edit = codePanel(page).getByRole('button', { name: 'Edit', exact: true });
  const editor = codePanel(page).getByRole('textbox', { name: 'Code editor' });
  // The tab's code loads when it first opens: wait for the Edit button or the open editor before asking which is there.
  await expect(edit.or(editor)).toBeVisible({ timeout: 30_000 });
  if (await edit.isVisible()) await edit.click();
  // CodeMirror is a chunk fetched on the first "Edit": on a busy machine it takes more than a few seconds.
  await expect(editor).toBeVisible({ timeout: 30_000 });
  await replaceInEditor(page, { file, find, replace: mend });
}

async function runMyVersion(page: Page): Promise<void> {
  await codePanel(page).getByRole('button', { name: 'Run my version' }).click();
  await expect(yourVersion(page)).toContainText('Your edited extension runs now', { timeout: 90_000 });
}

/** The step-2 race: marigold asked, the leaf moved back while the dialog waits, then Confirm. */
async function marigoldRace(page: Page): Promise<void> {
  await run(page, '/seeds reserve marigold-french 1');
  await expect(dialog(page)).toBeVisible();
  await dialog(page).getByRole('button', { name: 'Meanwhile: move to the previous entry' }).click();
  await confirmDialog(page);
}

async function queryThenAct(page: Page): Promise<void> {
  await callTool(page, { op: 'query' });
  const revision = await latestRevision(page);
  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision });
}

test('mend the second look: typed in the editor, run, the race is refused under your version and the step ticks', async ({ page }) => {
  test.setTimeout(420_000);
  await openBreakItAt(page, 2);
  await typeMend(page, 'extension/command.ts', 'const second = first;', 'const second = decideHumanChange(readDesk(ctx), command, before.revision, { interactive: ctx.hasUI });');
  await runMyVersion(page);
  await marigoldRace(page);
  await expect(output(page).getByRole('listitem').filter({ hasText: 'stale-revision' }).last()).toContainText('your edited extension');
  await expect(checkpoint(page)).toHaveText(REACHED);
});

test('mend the grant check: typed in the editor, run, the act without a grant is refused and the step ticks', async ({ page }) => {
  test.setTimeout(420_000);
  await openBreakItAt(page, 4);
  await typeMend(page, 'domain/desk.ts', 'if (false)', "if (request.actor !== 'human' && state.snapshot.agentEnabled !== true)");
  await runMyVersion(page);
  await queryThenAct(page);
  await expect(page.getByRole('region', { name: 'Structured details' })).toContainText('agent-disabled');
  await expect(checkpoint(page)).toHaveText(REACHED);
});

test('mend the branch walk: typed in the editor, run, the query here shows 0 basil and the step ticks', async ({ page }) => {
  test.setTimeout(420_000);
  await openBreakItAt(page, 6);
  await typeMend(page, 'extension/deskState.ts', 'sessionManager.getEntries()', 'ctx.sessionManager.getBranch()');
  await runMyVersion(page);
  await run(page, '/seeds query');
  await expect(output(page).getByRole('listitem').last()).toContainText('basil-genovese: 8 available, 0 reserved');
  await expect(checkpoint(page)).toHaveText(REACHED);
});

test('mend the validation: typed in the editor, run, the corrupt branch is refused again, then home to the shipped extension', async ({ page }) => {
  test.setTimeout(600_000);
  await openBreakItAt(page, 8);
  await typeMend(
    page,
    'domain/reconstruct.ts',
    "const parsed = { ok: true, snapshot: entry['data'] } as ReturnType<typeof parseSnapshot>;",
    "const data: unknown = entry['data']; const parsed = parseSnapshot(data);",
  );
  await runMyVersion(page);
  await run(page, '/seeds query');
  await expect(output(page).getByRole('listitem').filter({ hasText: 'corrupt-state' }).last()).toContainText('your edited extension');
  await expect(checkpoint(page)).toContainText('Back to the shipped extension');
  await codePanel(page).getByRole('button', { name: 'Back to the shipped extension' }).click();
  await expect(checkpoint(page)).toHaveText(REACHED);
});

test('"Back to the shipped extension" restores rather than mends: the race is refused, the mend step does not tick, and says why', async ({ page }) => {
  test.setTimeout(300_000);
  await openBreakItAt(page, 2);
  await openTool(page, 'Code');
  await codePanel(page).getByRole('button', { name: 'Back to the shipped extension' }).click();
  await expect(codePanel(page)).toContainText('Running: the shipped extension');
  await marigoldRace(page);
  await expect(output(page)).toContainText('Refused (stale-revision)');
  await expect(checkpoint(page)).toContainText('Not yet');
  await expect(checkpoint(page)).toContainText('restores the shipped extension, it does not mend yours');
});

// Issue 36: the shortcuts a learner would try, each seeing no tick and the sentence why.

/** "Break it", reset, then straight to the step titled `title` by its link in the lesson's map, nothing done on the way. */
async function openBreakItStep(page: Page, title: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  await page.getByRole('navigation', { name: 'Lessons' }).getByRole('link', { name: /Break it to see why/ }).click();
  await page.getByRole('button', { name: 'Reset lesson' }).click();
  await expect(page.getByRole('region', { name: /^Step \d+:/ })).toHaveAttribute('aria-busy', 'false');
  await page.getByRole('list', { name: 'Steps' }).getByRole('link', { name: new RegExp(`^○?\\s*${title}`) }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`^Step \\d+: ${title}`) })).toBeVisible();
}

/** "Edit", then "Run my version" with whatever the editor holds: the answer in the Code tab's status, as the page words it. */
async function runAsItIs(page: Page, said: string): Promise<void> {
  await openTool(page, 'Code');
  const edit = codePanel(page).getByRole('button', { name: 'Edit', exact: true });
  const runButton = codePanel(page).getByRole('button', { name: 'Run my version' });
  await expect(edit.or(runButton)).toBeVisible({ timeout: 30_000 });
  if (await edit.isVisible()) await edit.click();
  await runButton.click();
  await expect(yourVersion(page)).toContainText(said, { timeout: 90_000 });
}

const SHIPPED_TEXT = 'its text is the shipped files unchanged';

test('break the second look with nothing edited: "Run my version" is labelled as the shipped text, the race is refused, no tick', async ({ page }) => {
  test.setTimeout(300_000);
  await openBreakItStep(page, 'Without the second look');
  await runAsItIs(page, SHIPPED_TEXT);
  const status = page.getByRole('status', { name: 'Status line' });
  await expect(status).toContainText('your version (the shipped text)');
  await expect(status).not.toContainText('your edited extension');
  await run(page, '/seeds reserve basil-genovese 2');
  await confirmDialog(page);
  await run(page, '/seeds reserve bean-scarlet 2');
  await dialog(page).getByRole('button', { name: 'Meanwhile: move to the previous entry' }).click();
  await confirmDialog(page);
  await expect(output(page).getByRole('listitem').filter({ hasText: 'stale-revision' }).last()).toContainText('your version (the shipped text)');
  await expect(checkpoint(page)).toContainText('Not yet');
  await expect(checkpoint(page)).toContainText('still has the second look');
});

test('break the grant check with nothing edited: the agent switched on for the act and off again does not tick', async ({ page }) => {
  test.setTimeout(300_000);
  await openBreakItStep(page, 'Without the grant check');
  await runAsItIs(page, SHIPPED_TEXT);
  await run(page, '/seeds agent on');
  await confirmDialog(page);
  await queryThenAct(page);
  await run(page, '/seeds agent off');
  await confirmDialog(page);
  await expect(checkpoint(page)).toContainText('Not yet');
  await expect(checkpoint(page)).toContainText('with the agent on');
});

test('break the validation with nothing edited: the broken snapshot is still refused, no tick', async ({ page }) => {
  test.setTimeout(300_000);
  await openBreakItStep(page, 'Trusting every snapshot');
  await runAsItIs(page, SHIPPED_TEXT);
  await openTool(page, 'Refusals');
  await page.getByRole('button', { name: 'Try it: corrupt-state' }).click();
  await run(page, '/seeds query');
  await expect(output(page).getByRole('listitem').filter({ hasText: 'corrupt-state' }).last()).toBeVisible();
  await expect(checkpoint(page)).toContainText('Not yet');
  await expect(checkpoint(page)).toContainText('still validates snapshots');
});

test('mend the second look: "Discard my edits" and "Run my version" mends nothing; after "Reset this step" the line typed back exactly as shipped ticks', async ({ page }) => {
  test.setTimeout(480_000);
  await openBreakItAt(page, 2);
  await openTool(page, 'Code');
  await codePanel(page).getByRole('button', { name: 'Edit', exact: true }).click();
  await codePanel(page).getByRole('button', { name: 'Discard my edits' }).click();
  await expect(yourVersion(page)).toContainText('Your edits are discarded');
  await runAsItIs(page, SHIPPED_TEXT);
  await marigoldRace(page);
  await expect(output(page).getByRole('listitem').filter({ hasText: 'stale-revision' }).last()).toContainText('your version (the shipped text)');
  await expect(checkpoint(page)).toContainText('Not yet');
  await expect(checkpoint(page)).toContainText('"Discard my edits" put it back), which mends nothing');

  await page.getByRole('button', { name: 'Reset this step' }).click();
  await expect(yourVersion(page)).toContainText('the editor shows it', { timeout: 90_000 });
  await typeMend(page, 'extension/command.ts', 'const second = first;', 'const second = judge(readDesk(ctx));');
  await codePanel(page).getByRole('button', { name: 'Run my version' }).click();
  await expect(yourVersion(page)).toContainText('your change made its text the same as the shipped files', { timeout: 90_000 });
  await marigoldRace(page);
  await expect(checkpoint(page)).toHaveText(REACHED);
});

test('mend the grant check: a version broken here, then "Discard my edits" and "Run my version": the refusal does not tick', async ({ page }) => {
  test.setTimeout(420_000);
  await openBreakItStep(page, 'Put the grant check back');
  await typeMend(page, 'domain/desk.ts', "if (request.actor === 'agent' && !state.snapshot.agentEnabled) {", 'if (false) {');
  await runMyVersion(page);
  await codePanel(page).getByRole('button', { name: 'Discard my edits' }).click();
  await runAsItIs(page, SHIPPED_TEXT);
  await queryThenAct(page);
  await expect(page.getByRole('region', { name: 'Structured details' })).toContainText('agent-disabled');
  await expect(checkpoint(page)).toContainText('Not yet');
  await expect(checkpoint(page)).toContainText('which mends nothing');
});
