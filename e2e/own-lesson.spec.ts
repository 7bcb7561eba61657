import { expect, test, type Page } from '@playwright/test';
import { branchFromItem, openPlayground, output, run } from './support';
import { replaceInEditor } from './typing';

// Issue 37's lesson ("Your own branch-aware extension"), done by hand: the note kept in a variable
// follows the learner onto a branch that never held it; "Run my version" with nothing changed does
// not tick the second step (its reads name the other branch's note); the rebuild from the branch,
// typed into the editor key by key, does, through a move in the tree and a reopen.

const checkpoint = (page: Page) => page.getByRole('status', { name: 'Checkpoint' });
const codePanel = (page: Page) => page.getByRole('tabpanel', { name: 'Code', exact: true });
const lastAnswer = (page: Page) => output(page).getByRole('listitem').last();

/** A line typed in the Command box, and its answer in the output. */
async function say(page: Page, line: string, answer: string): Promise<void> {
  await run(page, line);
  await expect(lastAnswer(page)).toContainText(answer);
}

/** "Run my version" in the own workspace, until it is done (the first compile loads esbuild). */
async function runMyVersion(page: Page): Promise<void> {
  const button = codePanel(page).getByRole('button', { name: 'Run my version' });
  await button.click();
  await expect(button).toBeEnabled({ timeout: 60_000 });
  await expect(codePanel(page).getByRole('status', { name: 'Your extension' })).toContainText('Your extension runs now');
}

/**
 * The rebuild from the branch, as a learner types it into `my-extension.ts`. Each line is balanced,
 * so typing it with the editor's bracket closing on comes out as written (as own-extension.spec.ts).
 */
const REBUILD = [
  'let note = "";',
  '\tconst rebuild = (ctx: ExtensionContext) => { note = ""; for (const entry of ctx.sessionManager.getBranch()) if (entry.type === "custom" && entry.customType === NOTE_ENTRY) note = (entry.data as { text: string }).text; ctx.ui.setStatus("my-note", note ? "Note: " + note : "No note on this branch"); };',
  '\tfor (const event of ["session_start", "session_switch", "session_tree"] as const) pi.on(event, async (_event, ctx) => rebuild(ctx));',
].join('\n');

test('lesson 10 by hand: a variable’s note follows you; run unchanged it does not tick; rebuilt from the branch, typed, each branch keeps its note through a move and a reopen', async ({ page }) => {
  // Two compiles (the first loads esbuild), typing, a reopen: minutes on two loaded cores.
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  await page.getByRole('navigation', { name: 'Lessons' }).getByRole('link', { name: /^10\. / }).click();
  await expect(page.getByRole('heading', { name: 'Step 1: A note that follows you' })).toBeVisible();
  const reset = page.getByRole('button', { name: 'Reset lesson', exact: true });
  await reset.click();
  await expect(reset).toBeEnabled({ timeout: 90_000 });
  await expect(page.getByRole('status', { name: 'Status line' })).toContainText('your own extension');
  await expect(checkpoint(page)).toContainText('Not yet');

  // Step 1: the note follows the leaf back to before it was written.
  await say(page, 'plan the beds', 'Added your message');
  await say(page, '/note sow the beans', 'Noted on this branch: sow the beans');
  await say(page, 'water the beds', 'Added your message');
  await branchFromItem(page, 'plan the beds');
  await say(page, '/note', "This branch's note: sow the beans");
  await expect(checkpoint(page)).toHaveText('✓ Checkpoint reached.');

  // Step 2, the easy way around: "Run my version" with nothing changed, then the moves.
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByRole('heading', { name: 'Step 2: Keep the note on the branch' })).toBeVisible();
  await runMyVersion(page);
  await say(page, '/note sow the peas', 'Noted on this branch: sow the peas');
  await branchFromItem(page, 'water the beds');
  await say(page, '/note', "This branch's note: sow the peas");
  await expect(checkpoint(page)).toContainText('lies on another branch');

  // The rebuild typed in and run: the step judges what this version says from here on.
  await replaceInEditor(page, { file: 'my-extension.ts', find: 'let note = "";', replace: REBUILD });
  await runMyVersion(page);
  await expect(checkpoint(page)).toContainText('Not yet');
  await say(page, '/note sow the peas', 'Noted on this branch: sow the peas');
  await branchFromItem(page, 'water the beds');
  await say(page, '/note', "This branch's note: sow the beans");
  await expect(page.getByRole('status', { name: 'Status line' })).toContainText('Note: sow the beans');
  await page.getByRole('button', { name: 'Reopen session' }).click();
  await say(page, '/note', "This branch's note: sow the peas");
  await expect(checkpoint(page)).toHaveText('✓ Checkpoint reached.');
});
