import { expect, test, type Page } from '@playwright/test';
import { openPlayground, output, run } from './support';
import { codeEditor, typeInEditor } from './typing';

// Issue 37: an extension of one's own uses OMP's UI beyond confirm/select/input. A person types it
// in the own-extension workspace, runs it, and sees its widget above the Command box, its editor
// dialog (several lines, OK and Cancel), and the text it puts in the Command box.
const ENTRY = 'my-extension.ts';

/** Each line balanced, so typing it with the editor's bracket and quote closing on comes out as written. */
const MY_EXTENSION = [
  'import type { ExtensionAPI, ExtensionContext } from "@oh-my-pi/pi-coding-agent";',
  'const beds = async (_args: string, ctx: ExtensionContext) => ctx.ui.setWidget("beds", ["Bed 1: beans", "Bed 2: peas"]);',
  'const plan = async (_args: string, ctx: ExtensionContext) => { const text = await ctx.ui.editor("Plan the beds", "beans"); ctx.ui.notify(text === undefined ? "No plan" : "Planned"); if (text !== undefined) ctx.ui.setEditorText(`/sow ${text.split("\\n").join(", ")}`); };',
  'export default function (pi: ExtensionAPI) { pi.registerCommand("beds", { handler: beds }); pi.registerCommand("plan", { handler: plan }); }',
].join('\n');

const codePanel = (page: Page) => page.getByRole('tabpanel', { name: 'Code', exact: true });

test('a typed extension shows its widget above the Command box, asks through an editor dialog, and puts text in the Command box', async ({ page }) => {
  // A compile that loads esbuild and typing key by key: on two loaded cores, most of a minute.
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  await page.getByRole('navigation', { name: 'Lessons' }).getByRole('button', { name: 'Your own extension' }).click();
  const editor = codeEditor(page, ENTRY);
  await expect(editor).toContainText('My extension: one note per branch.');
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await typeInEditor(page, MY_EXTENSION);
  const runButton = codePanel(page).getByRole('button', { name: 'Run my version' });
  await runButton.click();
  await expect(runButton).toBeEnabled({ timeout: 30_000 });
  await expect(codePanel(page).getByRole('status', { name: 'Your extension' })).toContainText('Your extension runs now');

  // No widget until the extension sets one; then its lines, above the Command box.
  const widgets = page.getByRole('list', { name: 'Extension widgets' });
  await expect(widgets).toHaveCount(0);
  await run(page, '/beds');
  await expect(widgets.getByRole('listitem')).toHaveText(['Bed 1: beans\nBed 2: peas']);

  // The editor dialog: its title, the prefill, a second line typed with Enter, OK.
  const command = page.getByRole('textbox', { name: 'Command' });
  await run(page, '/plan');
  const plan = page.getByRole('dialog', { name: 'Plan the beds' });
  const text = plan.getByRole('textbox', { name: 'Text' });
  // The dialogs' views load with the first request (a chunk of their own): on two loaded cores, seconds.
  await expect(plan).toBeVisible({ timeout: 20_000 });
  await expect(text).toHaveValue('beans');
  await expect(text).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('peas');
  await plan.getByRole('button', { name: 'OK' }).click();
  await expect(plan).toBeHidden();
  await expect(output(page).getByRole('listitem').last()).toContainText('Planned');
  // What the extension put in the Command box, ready to run or change.
  await expect(command).toHaveValue('/sow beans, peas');

  // Cancel: the extension gets undefined and says so, and leaves the Command box alone.
  await run(page, '/plan');
  await expect(plan.getByRole('textbox', { name: 'Text' })).toHaveValue('beans');
  await plan.getByRole('button', { name: 'Cancel' }).click();
  await expect(plan).toBeHidden();
  await expect(output(page).getByRole('listitem').last()).toContainText('No plan');
  await expect(command).toHaveValue('');
});
