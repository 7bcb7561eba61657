import { expect, type Page } from '@playwright/test';

/**
 * Typing in the Code tab's editor (CodeMirror) as a person does: key by key, with the editor's own
 * behaviour left on. Shared by the specs and the lesson demos; call it from any spec that edits.
 *
 *   await replaceInEditor(page, { file: 'extension/command.ts', find: 'const second = judge(readDesk(ctx));', replace: 'const second = first;' });
 *
 * What it presses: the file picked in "File", a click in the editor, Ctrl+Home, Ctrl+F, `find`
 * typed into the search panel's "Find" box, Enter (the first match from the top is selected),
 * Escape (back in the text, the match still selected), Backspace, then `replace` typed.
 * The editor must already be open ("Edit" pressed); `find` must be in the file.
 *
 * How typing differs from pasting, and how this copes:
 *  - Auto-close brackets and quotes stay on (a learner has them). Typing a closer the editor added
 *    steps over it, so balanced text comes out as typed. Text with an unclosed bracket leaves the
 *    editor's closer after the cursor: the helper sees it (the rest of the line is not what it
 *    was) and presses Delete for it, as a person who notices the stray `)` does.
 *  - Selected text is deleted before typing: typing `(` over a selection wraps it instead.
 *  - A line break is Enter, which indents the new line; the helper then selects that indentation
 *    (Shift+Home) and types the line's own, or deletes it when the line has none.
 *  - Autocompletion pops up while a word is typed; Escape closes it before any Enter, so Enter
 *    never accepts a suggestion.
 * The result is checked: the line around the cursor must read as the edit says, else it throws.
 */
export interface EditorEdit {
  /** The file to edit, as the "File" list names it; omitted: the file shown. */
  readonly file?: string;
  /** The text to change (its first occurrence in the file). */
  readonly find: string;
  /** What to type in its place. */
  readonly replace: string;
}

const codePanel = (page: Page) => page.getByRole('tabpanel', { name: 'Code', exact: true });

/** The Code tab's editor for `file` (the editable text box, "Code editor", in the figure named by the file). */
export function codeEditor(page: Page, file: string) {
  return codePanel(page).getByRole('figure', { name: file }).getByRole('textbox', { name: 'Code editor' });
}

export async function replaceInEditor(page: Page, { file, find, replace }: EditorEdit): Promise<void> {
  const panel = codePanel(page);
  const picker = panel.getByRole('combobox', { name: 'File' });
  const path = file ?? (await picker.inputValue());
  if (file && (await picker.inputValue()) !== file) await picker.selectOption(file);
  const editor = codeEditor(page, path);
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Control+f');
  const search = panel.getByRole('textbox', { name: 'Find', exact: true });
  await expect(search).toBeFocused();
  await page.keyboard.press('Control+a');
  await page.keyboard.type(find);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect(editor).toBeFocused();
  const found = await selectedText(page);
  if (found !== find) throw new Error(`${path}: searching for ${JSON.stringify(find)} selected ${JSON.stringify(found)}`);
  await page.keyboard.press('Backspace');
  await typeInEditor(page, replace);
  // Every key reached the text: the editor kept focus and shows the typed text's last line.
  await expect(editor).toBeFocused();
  await expect(editor).toContainText(replace.split('\n').at(-1)?.trim() ?? '');
}

/**
 * Types `text` at the editor's cursor, key by key (see above for brackets, line breaks and
 * completions), and checks the line around the cursor reads as typed.
 */
export async function typeInEditor(page: Page, text: string): Promise<void> {
  const before = await restOfLine(page);
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (index > 0) {
      await page.keyboard.press('Escape');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Shift+Home');
      const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
      if (indent === '' && (await selectedText(page)) !== '') await page.keyboard.press('Delete');
    }
    await page.keyboard.type(line);
  }
  // Autocompletion may be open after a word: closed, so the next Enter or click is the test's own.
  await page.keyboard.press('Escape');
  const after = await restOfLine(page);
  if (after === before) return;
  const added = after.endsWith(before) ? after.slice(0, after.length - before.length) : null;
  if (added === null || !/^[)\]}'"`]+$/.test(added)) {
    throw new Error(`typing ${JSON.stringify(text)} left ${JSON.stringify(after)} after the cursor, where ${JSON.stringify(before)} was`);
  }
  // The closers the editor added for brackets the text leaves open.
  for (let count = 0; count < added.length; count++) await page.keyboard.press('Delete');
  const mended = await restOfLine(page);
  if (mended !== before) throw new Error(`after deleting ${JSON.stringify(added)}: ${JSON.stringify(mended)} after the cursor, where ${JSON.stringify(before)} was`);
}

/** The text after the cursor to the end of its (visual) line: selected with Shift+End, read, and the cursor put back with Left. */
async function restOfLine(page: Page): Promise<string> {
  await page.keyboard.press('Shift+End');
  const rest = await selectedText(page);
  if (rest !== '') await page.keyboard.press('ArrowLeft');
  return rest;
}

/** What the page's selection holds (CodeMirror keeps the document's selection in step with its own while it has focus). */
function selectedText(page: Page): Promise<string> {
  return page.evaluate(() => document.getSelection()?.toString() ?? '');
}
