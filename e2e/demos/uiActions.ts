import { expect, type Page } from '@playwright/test';
import type { LessonAction } from '../../lessons/format/lessonSchema';
import type { LessonActionDriver, LessonActionOf, LessonBranchTarget } from '../../web/src/tutorial/lessonActions';
import { replaceInEditor } from '../typing';
import {
  activeBranch,
  activeLeafId,
  approvalDialog,
  confirmationDialog,
  entryCount,
  expectTreeCurrent,
  openTool,
  openWorkspace,
  outputLines,
  selectNode,
  sessionId,
  showsKind,
  treeItems,
} from './workspace';

/**
 * The demos' driver of the lesson actions (web/src/tutorial/lessonActions.ts): each primitive done
 * as a person does it on the page (typing, clicking by role and name, selecting), where the page's
 * own driver (web/src/app/actions.ts) calls the methods the buttons call. What each action does is
 * the shared table's. Every primitive waits until what it did has settled (an answer in the output,
 * a dialog, a count that moved), so the next one sees its result.
 */

/** One demo run: the page, and the revisions tool results returned ("$latest", "$previous"). */
export interface Demo {
  readonly page: Page;
  /** Newest last, without repeats in a row, as the page's `fillRevisions` reads them from its facts. */
  readonly revisions: string[];
}

export function newDemo(page: Page): Demo {
  return { page, revisions: [] };
}

/** Waits until the Command output holds more than `before` lines. */
async function expectOutputBeyond(page: Page, before: number): Promise<void> {
  await expect(outputLines(page).nth(before)).toBeVisible();
}

/** The revision the Tool call panel offers as the latest, remembered as a person copies it. */
async function noteToolRevision(demo: Demo): Promise<void> {
  const latest = demo.page.getByText('Latest revision from a result:').locator('code');
  if ((await latest.count()) === 0) return;
  const revision = ((await latest.textContent()) ?? '').trim();
  if (revision && demo.revisions.at(-1) !== revision) demo.revisions.push(revision);
}

/** The lesson's "$latest" and "$previous" filled with the revisions the demo noted (the page reads them from its facts). */
function fillPlaceholders(args: Readonly<Record<string, unknown>>, revisions: readonly string[]): Record<string, unknown> {
  const replace = (value: unknown): unknown => (value === '$latest' ? (revisions.at(-1) ?? value) : value === '$previous' ? (revisions.at(-2) ?? value) : value);
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, replace(value)]));
}

/**
 * The page as a `LessonActionDriver`: `performAction(uiDriver(demo), action)` does one lesson
 * action through the page. The Agents tab's choice is the one primitive the table does not await
 * (the page's is synchronous): here it is clicks, so Step and Run to end wait for it first.
 */
export function uiDriver(demo: Demo): LessonActionDriver {
  const { page } = demo;
  let agentChosen: Promise<void> | undefined;
  let agentSteps = 0;
  const agentReady = async () => {
    const chosen = agentChosen;
    agentChosen = undefined;
    await chosen;
  };
  return {
    line: (text) => typeLine(page, text),
    answerDialog: (confirmed) => answerConfirmation(page, confirmed ? 'Confirm' : 'Cancel'),
    meanwhile: (what) => meanwhile(page, what === 'reserve' ? /^Meanwhile: reserve / : 'Meanwhile: move to the previous entry'),
    async stepBack() {
      await openTool(page, 'Refusals');
      // The page offers this move only in the Refusals panel, once its corrupt-state demo has run.
      const stepBack = page.getByRole('button', { name: 'Step back past the invalid entry' });
      if ((await stepBack.count()) === 0) throw new Error('"Step back past the invalid entry" shows only after the Refusals panel\'s corrupt-state demo ("corrupt-demo").');
      const before = await outputLines(page).count();
      await stepBack.click();
      await expectOutputBeyond(page, before);
    },
    appendCorrupt: (validAfter) => refusalsDemo(page, validAfter ? 'Try it: a valid snapshot after a broken one' : 'Try it: corrupt-state'),
    async callTool(args) {
      await openTool(page, 'Tool call');
      // The table hands the lesson's placeholders on: the demo fills them with the revisions it noted.
      await page.getByRole('textbox', { name: 'Tool arguments' }).fill(JSON.stringify(fillPlaceholders(args, demo.revisions)));
      const before = await entryCount(page);
      await page.getByRole('button', { name: 'Call seed_desk' }).click();
      // Every call is recorded (the host appends it); one that needs approval then waits in its dialog.
      await expect.poll(() => entryCount(page), { message: 'the call is recorded in the session' }).toBeGreaterThan(before);
      await noteToolRevision(demo);
    },
    answerApproval: (approved) => answerApproval(demo, approved ? 'Approve' : 'Deny'),
    async policy(value) {
      await openTool(page, 'Tool call');
      const select = page.getByRole('combobox', { name: 'Host approval for seed_desk' });
      await select.selectOption(value ?? '');
      await expect(select).toHaveValue(value ?? '');
    },
    async approvalMode(value) {
      await openTool(page, 'Tool call');
      const radio = page.getByRole('radiogroup', { name: 'Approval mode' }).getByRole('radio', { name: value, exact: true });
      await radio.check();
      await expect(radio).toBeChecked();
    },
    async interactive(value) {
      await page.getByRole('checkbox', { name: 'Interactive UI' }).setChecked(value);
      // The headless note follows the host's answer, not the click.
      const headless = page.getByRole('note').filter({ hasText: 'Headless: no dialog can be shown' });
      if (value) await expect(headless).toBeHidden();
      else await expect(headless).toBeVisible();
    },
    async filterJournal(text) {
      await openTool(page, 'Journal');
      const journal = page.getByRole('region', { name: 'Journal', exact: true });
      await journal.getByRole('textbox', { name: 'Filter journal' }).fill(text);
      await expect(journal).toHaveAttribute('aria-busy', 'false');
    },
    async reopen() {
      await page.getByRole('button', { name: 'Reopen session' }).click();
      // A reopen always says where it put the leaf.
      await expect(page.getByRole('region', { name: 'Session controls' }).getByRole('note').filter({ hasText: /reopen/i })).toBeVisible();
    },
    async newSession(fresh) {
      await openTool(page, 'Sessions');
      const before = await sessionId(page);
      // A lesson's start is a new host process's session: the lesson panel's "Reset lesson" makes it.
      await page.getByRole('button', { name: fresh ? 'Reset lesson' : 'New session', exact: true }).click();
      await expect.poll(() => sessionId(page)).not.toBe(before);
    },
    async failNextWrite() {
      const controls = page.getByRole('region', { name: 'Session controls' });
      const fail = controls.getByRole('button', { name: 'Fail the next write' });
      if (!(await fail.isVisible())) await controls.getByText('Fault injection', { exact: true }).click();
      // No visible answer: the worker takes requests in order, so the next write meets the fault.
      await fail.click();
    },
    branchFrom: (target) => branchFrom(page, target),
    async compareWithOtherBranch() {
      await expectTreeCurrent(page);
      const onBranch = new Set((await activeBranch(page)).map((item) => item.id));
      let other: string | null = null;
      for (const item of (await treeItems(page).all()).reverse()) {
        const id = await item.getAttribute('data-id');
        if (id && !onBranch.has(id) && (await showsKind(item, 'seed desk'))) {
          other = id;
          break;
        }
      }
      if (!other) throw new Error('There is no seed desk entry on another branch to compare with.');
      await selectNode(page, other);
      await page.getByRole('button', { name: 'Compare with selected' }).click();
      await expect(page.getByRole('region', { name: 'This branch' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Other branch' })).toContainText(other);
    },
    async tryOtherRevision() {
      await page.getByRole('button', { name: "Try an act here with the other branch's revision" }).click();
      await expect(page.getByRole('status', { name: 'Compare attempt' })).toBeVisible();
      await noteToolRevision(demo);
    },
    twinTab: () => twinTab(page),
    closingAnswer: (value) => answerYesNo(page, value),
    answerQuestion: (value) => answerYesNo(page, value),
    chooseAgent(agent) {
      agentSteps = 0;
      agentChosen = chooseAgent(page, agent);
    },
    async stepAgent() {
      await agentReady();
      agentSteps += 1;
      await page.getByRole('button', { name: 'Step', exact: true }).click();
      await expect(page.getByRole('list', { name: 'Agent transcript' }).getByRole('listitem').filter({ hasText: /Step \d+\./ })).toHaveCount(agentSteps);
      await noteToolRevision(demo);
    },
    async runAgentToEnd() {
      await agentReady();
      await openTool(page, 'Agents');
      await page.getByRole('button', { name: 'Run to end' }).click();
      await expect(page.getByRole('note', { name: 'Agent summary' })).toBeVisible();
      await noteToolRevision(demo);
    },
    async applyEdit(edit) {
      await openEditor(page);
      // Found with the editor's search and typed key by key, as a learner makes the edit (e2e/typing.ts).
      await replaceInEditor(page, edit);
    },
    async runEdited() {
      const code = await openEditor(page);
      const runButton = code.getByRole('button', { name: 'Run my version' });
      await runButton.click();
      // Disabled while it compiles (the click set it busy); enabled again once this version runs.
      // The first compile starts esbuild-wasm: seen past 30 s on two cores shared by several runs.
      await expect(runButton).toBeEnabled({ timeout: 60_000 });
      await expect(code.getByRole('status', { name: 'Your version' })).toContainText('Your edited extension runs now');
      await expect(page.getByRole('status', { name: 'Status line' })).toContainText('your edited extension');
    },
    async shippedExtension() {
      await openTool(page, 'Code');
      const back = page.getByRole('tabpanel', { name: 'Code', exact: true }).getByRole('button', { name: 'Back to the shipped extension' });
      if ((await back.count()) === 0 || (await back.isDisabled())) return;
      await back.click();
      await expect(page.getByRole('status', { name: 'Status line' })).not.toContainText('your edited extension');
    },
    async discardEdits() {
      const code = await openEditor(page);
      const discard = code.getByRole('button', { name: 'Discard my edits' });
      if (await discard.isDisabled()) return;
      await discard.click();
      await expect(code.getByRole('status', { name: 'Your version' })).toContainText('Your edits are discarded');
    },
    async ownFiles(from) {
      const code = await openOwnWorkspace(page);
      await code.getByRole('combobox', { name: 'Start from' }).selectOption(from);
      await code.getByRole('button', { name: 'Start over from this' }).click();
      await expect(code.getByRole('status', { name: 'Your extension' })).toContainText('Your files start over from');
    },
    async ownEdit(edit) {
      await openOwnWorkspace(page);
      // Found with the editor's search and typed key by key (e2e/typing.ts), as in "Break it".
      await replaceInEditor(page, { file: 'my-extension.ts', ...edit });
    },
    async runOwn() {
      const code = await openOwnWorkspace(page);
      const runButton = code.getByRole('button', { name: 'Run my version' });
      await runButton.click();
      // The first compile starts esbuild-wasm: seen past 30 s on two cores shared by several runs.
      await expect(runButton).toBeEnabled({ timeout: 60_000 });
      await expect(code.getByRole('status', { name: 'Your extension' })).toContainText('Your extension runs now');
    },
  };
}

/** The Code tab on "Your own extension" (a lesson that works there opens it on arrival). */
async function openOwnWorkspace(page: Page) {
  await openTool(page, 'Code');
  const code = page.getByRole('tabpanel', { name: 'Code', exact: true });
  await expect(code.getByRole('heading', { name: 'Your own extension' })).toBeVisible();
  return code;
}

async function typeLine(page: Page, text: string): Promise<void> {
  const before = await outputLines(page).count();
  const command = page.getByRole('textbox', { name: 'Command' });
  await command.fill(text);
  await command.press('Enter');
  // A line is answered in the output, or (a change to the desk) by its confirmation dialog.
  await expect(confirmationDialog(page).or(outputLines(page).nth(before + 1)).first()).toBeVisible();
}

/** A change to the desk waits in its dialog: Confirm or Cancel, then wait for the outcome in the output. */
async function answerConfirmation(page: Page, button: 'Confirm' | 'Cancel'): Promise<void> {
  const dialog = confirmationDialog(page);
  await expect(dialog).toBeVisible();
  const before = await outputLines(page).count();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expectOutputBeyond(page, before);
  await expect(dialog).toBeHidden();
}

/** Presses a button inside the open confirmation dialog and waits for what it says in the output. */
async function meanwhile(page: Page, name: string | RegExp): Promise<void> {
  const dialog = confirmationDialog(page);
  await expect(dialog).toBeVisible();
  const before = await outputLines(page).count();
  await dialog.getByRole('button', { name }).click();
  await expectOutputBeyond(page, before);
}

async function answerApproval(demo: Demo, button: 'Approve' | 'Deny'): Promise<void> {
  const dialog = approvalDialog(demo.page);
  await expect(dialog).toBeVisible();
  const before = await entryCount(demo.page);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
  // The call's result is recorded once the host has the answer.
  await expect.poll(() => entryCount(demo.page), { message: 'the answered call has its result in the session' }).toBeGreaterThan(before);
  await noteToolRevision(demo);
}

/** A Refusals panel demo button, then its result region (the demo buttons stay disabled while one runs). */
async function refusalsDemo(page: Page, name: string): Promise<void> {
  await openTool(page, 'Refusals');
  const button = page.getByRole('button', { name });
  await button.click();
  await expect(page.getByRole('region', { name: 'Refusal demo result' })).toContainText('corrupt-state');
  await expect(button).toBeEnabled();
}

/** "Branch from here" on the node showing the text, or on the parent of the branch's last reservation. */
async function branchFrom(page: Page, target: LessonBranchTarget): Promise<void> {
  await expectTreeCurrent(page);
  if (target.by === 'before-last-reservation') {
    const branch = await activeBranch(page);
    const last = branch.findLastIndex((item) => item.seedDesk);
    const parent = branch[last - 1];
    if (last < 1 || !parent) throw new Error('There is no reservation on this branch to go back before.');
    // A user message as parent puts the leaf on its own parent: either is "before the reservation".
    const expected = new Set([parent.id, branch[last - 2]?.id ?? null]);
    return branchFromNode(page, parent.id, async () => expected.has(await activeLeafId(page)));
  }
  const node = treeItems(page).filter({ hasText: target.text }).first();
  const id = await node.getAttribute('data-id');
  if (!id) throw new Error(`No entry in the session tree shows "${target.text}".`);
  // A user message puts the leaf on its parent: the message is then off the Active branch.
  const userMessage = await showsKind(node, 'user');
  await branchFromNode(page, id, async () => (userMessage ? !(await activeBranch(page)).some((item) => item.id === id) : (await activeLeafId(page)) === id));
}

/**
 * Selects the node and presses "Branch from here", then waits until the desk has `settled`: the
 * leaf moves to the node, or to its parent when the node is a user message (as the host's tree does).
 */
async function branchFromNode(page: Page, id: string, settled: () => Promise<boolean>): Promise<void> {
  await selectNode(page, id);
  await page.getByRole('button', { name: 'Branch from here' }).click();
  await expect.poll(settled, { message: `the leaf moved after branching from ${id}` }).toBe(true);
  await expectTreeCurrent(page);
}

/**
 * A second tab of the same browser: it opens the session, steps back before the last
 * reservation there, and reserves every marigold on that branch of its own.
 */
async function twinTab(page: Page): Promise<void> {
  const twin = await page.context().newPage();
  try {
    const before = await treeItems(page).count();
    await openWorkspace(twin);
    await branchFrom(twin, { by: 'before-last-reservation' });
    await typeLine(twin, '/seeds reserve marigold-french 3');
    await answerConfirmation(twin, 'Confirm');
    // This tab hears of the other tab's entry: its tree gains the node.
    await expect(treeItems(page)).toHaveCount(before + 1);
  } finally {
    await twin.close();
  }
}

/** Yes or No under the step (its own question, or the closing question). */
async function answerYesNo(page: Page, value: 'yes' | 'no'): Promise<void> {
  const button = page.getByRole('group', { name: 'Your answer' }).getByRole('button', { name: value === 'yes' ? 'Yes' : 'No', exact: true });
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
}

/** The Agents tab: the agent chosen, and "Reset agent" (choosing the agent already in the list starts nothing new). */
async function chooseAgent(page: Page, agent: LessonActionOf<'run-agent'>['agent']): Promise<void> {
  await openTool(page, 'Agents');
  await page.getByRole('combobox', { name: 'Scripted agent' }).selectOption(agent);
  await page.getByRole('button', { name: 'Reset agent' }).click();
}

/** The Code tab in edit mode (its "Edit" pressed once), as a learner opens it. */
async function openEditor(page: Page) {
  await openTool(page, 'Code');
  const code = page.getByRole('tabpanel', { name: 'Code', exact: true });
  const edit = code.getByRole('button', { name: 'Edit', exact: true });
  if ((await edit.count()) > 0) await edit.click();
  await expect(code.getByRole('button', { name: 'Run my version' })).toBeVisible();
  return code;
}

/** A short title for the action's test.step, as the learner would say it. */
export function describeAction(action: LessonAction): string {
  switch (action.do) {
    case 'line':
      return `Type "${action.text}" in Command`;
    case 'tool':
      return `Call seed_desk with ${JSON.stringify(action.args)}`;
    case 'policy':
      return `Set "Host approval for seed_desk" to ${action.value ?? 'not set'}`;
    case 'approval-mode':
      return `Set "Approval mode" to ${action.value}`;
    case 'interactive':
      return `${action.value ? 'Tick' : 'Untick'} "Interactive UI"`;
    case 'filter-journal':
      return `Filter the journal for "${action.text}"`;
    case 'branch-from':
      return `Branch from the node showing "${action.text}"`;
    case 'closing-answer':
      return `Answer the closing question: ${action.value === 'yes' ? 'Yes' : 'No'}`;
    case 'answer':
      return `Answer the step's question: ${action.value === 'yes' ? 'Yes' : 'No'}`;
    case 'run-agent':
      return `Agents tab: the ${action.agent} agent, ${action.calls === undefined ? 'Run to end' : `Step ×${action.calls}`}`;
    case 'apply-edit':
      return `Code tab, Edit: in ${action.file} replace "${action.find}" with "${action.replace}"`;
    case 'run-edited':
      return 'Code tab: "Run my version"';
    case 'shipped-extension':
      return 'Code tab: "Back to the shipped extension"';
    case 'own-files':
      return `Your own extension: start over from ${action.from}`;
    case 'own-edit':
      return `Your own extension: in my-extension.ts replace "${action.find}" with "${action.replace}"`;
    case 'run-own':
      return 'Your own extension: "Run my version"';
    default:
      return action.do;
  }
}
