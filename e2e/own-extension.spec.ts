import { expect, test, type Page } from '@playwright/test';
import { branchFromItem, openPlayground, output, run, tree } from './support';
import { codeEditor, replaceInEditor, typeInEditor } from './typing';

// Issue 37: "Your own extension". A person types a small extension of their own in the Code tab,
// runs it alone on a session of its own, forks with a click, and sees each branch keep its own
// note; a reload runs it again; an import the page cannot provide is refused with one sentence;
// a lesson brings Seed Desk and its session back.
const ENTRY = 'my-extension.ts';

/**
 * A note per branch, kept in custom entries and read back from the branch: what the template
 * does, without its tool (the tool's `pi.zod` waits for the page host's API work). Each line is
 * balanced, so typing it with the editor's bracket closing on comes out as written.
 */
const MY_EXTENSION = [
  'import type { ExtensionAPI, ExtensionContext } from "@oh-my-pi/pi-coding-agent";',
  'const KEY = "my-note";',
  'const notesOn = (ctx: ExtensionContext) => ctx.sessionManager.getBranch().filter((e) => e.type === "custom" && e.customType === KEY);',
  'const show = (ctx: ExtensionContext) => ctx.ui.setStatus(KEY, `Branch note: ${notesOn(ctx).at(-1)?.data.text ?? "none"}`);',
  'const listen = (pi: ExtensionAPI) => ["session_start", "session_switch", "session_tree"].forEach((name) => pi.on(name, async (_event, ctx) => show(ctx)));',
  'export default function (pi: ExtensionAPI) { listen(pi); pi.registerCommand("note", { handler: async (args, ctx) => { pi.appendEntry(KEY, { text: args.trim() }); show(ctx); } }); }',
].join('\n');

const codePanel = (page: Page) => page.getByRole('tabpanel', { name: 'Code', exact: true });
const statusLine = (page: Page) => page.getByRole('status', { name: 'Status line' });
const yourExtension = (page: Page) => codePanel(page).getByRole('status', { name: 'Your extension' });

/** Presses "Run my version" and waits until it is done (the first compile loads esbuild). */
async function runMyVersion(page: Page): Promise<void> {
  const button = codePanel(page).getByRole('button', { name: 'Run my version' });
  await button.click();
  await expect(button).toBeEnabled({ timeout: 30_000 });
}

test('a typed extension of my own runs alone on its own session; each branch keeps its note through a fork, a switch back and a reload; an unknown package is refused; a lesson brings Seed Desk back', async ({ page }) => {
  // A compile that loads esbuild, typing, a reload and a second compile: on two loaded cores, more than a minute.
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  const seedDeskStatus = (await statusLine(page).textContent()) ?? '';

  await page.getByRole('navigation', { name: 'Lessons' }).getByRole('button', { name: 'Your own extension' }).click();
  await expect(page.getByRole('tab', { name: 'Code', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(codePanel(page).getByRole('combobox', { name: 'Start from' })).toHaveValue('template');
  await expect(codePanel(page)).toContainText('MIT licence (Copyright (c) 2025 Mario Zechner');
  const editor = codeEditor(page, ENTRY);
  await expect(editor).toContainText('My extension: one note per branch.');
  await expect(yourExtension(page)).toContainText('Not running yet');

  // The template's text out, my own in, key by key.
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await typeInEditor(page, MY_EXTENSION);
  await expect(editor).toContainText('Branch note: ');
  await runMyVersion(page);
  await expect(yourExtension(page)).toContainText('Your extension runs now, alone, on its own session');
  await expect(statusLine(page)).toContainText('your own extension');
  await expect(statusLine(page)).toContainText('Branch note: none');
  await expect(page.getByRole('note').filter({ hasText: 'Seed Desk is not loaded' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Seed desk' })).toHaveCount(0);

  // A note on this branch, typed in the Command box as /name args.
  await run(page, 'plan the beds');
  await expect(output(page).getByRole('listitem').last()).toContainText('Added your message');
  await run(page, '/note sow the beans');
  await expect(statusLine(page)).toContainText('Branch note: sow the beans');

  // Forked with a click: the new branch has no note until one is written there.
  await branchFromItem(page, 'plan the beds');
  await expect(statusLine(page)).toContainText('Branch note: none');
  await run(page, '/note sow the peas');
  await expect(statusLine(page)).toContainText('Branch note: sow the peas');

  // Back to the first branch with a click: its own note, rebuilt from the branch.
  await branchFromItem(page, 'my-note');
  await expect(statusLine(page)).toContainText('Branch note: sow the beans');

  // A reload runs my extension again on its session (the leaf on the last appended entry: the peas branch).
  await page.reload();
  await expect(statusLine(page)).toContainText('Branch note: sow the peas', { timeout: 30_000 });
  await expect(statusLine(page)).toContainText('your own extension');
  await expect(codeEditor(page, ENTRY)).toContainText('Branch note: ');

  // An import the page cannot provide: refused with one sentence naming it; my extension keeps running.
  // (Used, or TypeScript's rules drop it as a type import: esbuild does, and so does the real OMP's loader.)
  await replaceInEditor(page, { file: ENTRY, find: 'const KEY = "my-note";', replace: 'import chalk from "chalk"; const KEY = chalk.dim("my-note");' });
  await runMyVersion(page);
  await expect(yourExtension(page)).toContainText(`${ENTRY}:2:19: "chalk" cannot be imported here: the page provides no npm packages to your extension`);
  await expect(yourExtension(page)).toContainText('Your extension that was running keeps running.');
  await run(page, '/note thin the seedlings');
  await expect(statusLine(page)).toContainText('Branch note: thin the seedlings');

  // A lesson: Seed Desk and its session again, as they were.
  await page.getByRole('navigation', { name: 'Lessons' }).getByRole('link').first().click();
  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeVisible();
  await expect(statusLine(page)).toHaveText(seedDeskStatus);
  await expect(tree(page).getByRole('treeitem').filter({ hasText: 'my-note' })).toHaveCount(0);
});
