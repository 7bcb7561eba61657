import { waitFor } from 'xstate';
import type { LessonAction } from '../../../lessons/format/lessonSchema';
import { resetStep, type StepStart } from '../tutorial/stepStart';
import { agentRunnerOf } from './agentRunner.svelte';
import { MEANWHILE_ITEM, STEP_BACK_PAST_INVALID, type Playground } from './playground.svelte';
import { appendCorrupt } from './refusalDemos';

const SETTLE_TIMEOUT = 10_000;

/** The revisions tool results returned, newest last, without repeats in a row. */
function toolRevisions(playground: Playground): string[] {
  const revisions: string[] = [];
  for (const fact of playground.facts.facts) {
    if (fact.kind !== 'tool' || fact.outcome.kind !== 'result') continue;
    const revision = fact.outcome.details?.revision;
    if (revision && revisions.at(-1) !== revision) revisions.push(revision);
  }
  return revisions;
}

function fillPlaceholders(args: Record<string, unknown>, playground: Playground): Record<string, unknown> {
  const revisions = toolRevisions(playground);
  const replace = (value: unknown): unknown =>
    value === '$latest' ? (revisions.at(-1) ?? value) : value === '$previous' ? (revisions.at(-2) ?? value) : value;
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, replace(value)]));
}

async function dialogSettled(playground: Playground): Promise<void> {
  await waitFor(playground.command.confirmation, (snapshot) => !['committing', 'cancelling'].includes(String(snapshot.value)), { timeout: SETTLE_TIMEOUT });
}

/**
 * Performs one lesson action through the page's own paths (the methods the buttons call) and
 * waits until it has settled, so the next action sees its result.
 */
export async function perform(playground: Playground, action: LessonAction): Promise<void> {
  switch (action.do) {
    case 'line':
      // The line's answer has arrived when this resolves; a dialog it opened is open by then.
      await playground.command.runLine(action.text);
      return;
    case 'confirm':
    case 'cancel':
      await waitFor(playground.command.confirmation, (snapshot) => snapshot.value === 'open', { timeout: SETTLE_TIMEOUT });
      if (action.do === 'confirm') playground.command.confirm();
      else playground.command.cancel();
      await dialogSettled(playground);
      return;
    case 'meanwhile-reserve':
      await playground.command.meanwhileReserve(MEANWHILE_ITEM, 1);
      return;
    case 'meanwhile-step-back':
      await playground.command.stepBack();
      return;
    case 'step-back':
      await playground.command.stepBack(STEP_BACK_PAST_INVALID, 'navigated');
      return;
    case 'corrupt-demo':
    case 'corrupt-then-valid':
      await appendCorrupt(playground, action.do === 'corrupt-then-valid');
      return;
    case 'tool':
      await playground.tool.call(JSON.stringify(fillPlaceholders(action.args, playground)), false);
      return;
    case 'approve':
    case 'deny':
      await waitFor(playground.tool.approvalActor, (snapshot) => snapshot.value === 'prompting', { timeout: SETTLE_TIMEOUT });
      playground.tool.answerApproval(action.do === 'approve');
      await waitFor(playground.tool.approvalActor, (snapshot) => snapshot.value === 'idle', { timeout: SETTLE_TIMEOUT });
      return;
    case 'policy':
      await playground.tool.setApprovalPolicy(action.value);
      return;
    case 'approval-mode':
      await playground.tool.setApprovalMode(action.value);
      return;
    case 'interactive':
      await playground.tool.setInteractive(action.value);
      return;
    case 'filter-journal':
      await playground.journal.show(action.text);
      return;
    case 'reopen':
      await playground.sessions.reopen();
      return;
    case 'branch-from':
      await playground.tree.branchFrom({ by: 'text', text: action.text });
      return;
    case 'branch-before-last-reservation':
      await playground.tree.branchFrom({ by: 'before-last-reservation' });
      return;
    case 'compare-with-other-branch':
      await playground.tree.compare({ by: 'newest-off-branch' });
      return;
    case 'try-other-revision':
      await playground.tryOtherRevision();
      return;
    case 'new-session':
      await playground.sessions.newSession(action.fresh === true);
      return;
    case 'twin-tab':
      await playground.closing.runTwinTab();
      return;
    case 'fail-next-write':
      await playground.sessions.failNextWrite('abort');
      return;
    case 'closing-answer':
      playground.closing.give(action.value);
      return;
    case 'answer':
      playground.closing.answerQuestion(action.value);
      return;
    case 'run-agent': {
      // As the Agents tab: choose the agent (a fresh run), then Step `calls` times, or Run to end.
      const runner = agentRunnerOf(playground);
      runner.choose(action.agent);
      if (action.calls === undefined) await runner.runToEnd();
      else for (let call = 0; call < action.calls; call++) await runner.step();
      return;
    }
    case 'continue-agent':
      await agentRunnerOf(playground).runToEnd();
      return;
    case 'apply-edit':
      await applyEdit(playground, action);
      return;
    case 'run-edited':
      await playground.edits.run();
      if (playground.edits.problems.length > 0 || playground.view?.extension !== 'edited') throw new Error(playground.edits.message ?? 'Your version did not run.');
      return;
    case 'shipped-extension':
      if (playground.view?.extension === 'edited') await playground.edits.backToShipped();
      return;
  }
}

/** As the editor's find and replace: in the file's current text (the draft, else the shipped one), `find` once becomes `replace`. */
async function applyEdit(playground: Playground, edit: Extract<LessonAction, { do: 'apply-edit' }>): Promise<void> {
  const { loadExtensionSource } = await import('../views/code/codeView');
  const shipped = (await loadExtensionSource()).files.find((file) => file.path === edit.file)?.text;
  if (shipped === undefined) throw new Error(`${edit.file} is not one of the extension's files.`);
  const current = playground.edits.drafts[edit.file] ?? shipped;
  if (current.split(edit.find).length !== 2) throw new Error(`${edit.file} does not hold this text exactly once: ${edit.find}`);
  const text = current.replace(edit.find, edit.replace);
  const drafts: Record<string, string> = { ...playground.edits.drafts, [edit.file]: text };
  if (text === shipped) delete drafts[edit.file];
  playground.edits.useDrafts(drafts);
}

/** "Reset this step" through the page's own paths (the moves are planned in lessons/stepStart.ts). */
export function resetStepTo(playground: Playground, start: StepStart): Promise<string | null> {
  return resetStep(
    {
      view: () => playground.view,
      runningFiles: async () => (await playground.connection.call({ type: 'storedEdits' }))?.files ?? null,
      switchSession: (sessionId) => playground.sessions.switchTo(sessionId),
      selectEntry: (id) => playground.tree.branchFrom({ by: 'id', id }),
      stepBack: () => playground.command.stepBack('Reset this step: the leaf moved back one entry, appending nothing.', 'navigated'),
      approvalMode: (value) => playground.tool.setApprovalMode(value),
      policy: (value) => playground.tool.setApprovalPolicy(value),
      interactive: (value) => playground.tool.setInteractive(value),
      runFiles: async (files) => {
        // The version the step began with, not the editor's text: the learner's typing stays in the editor.
        const result = await playground.connection.call({ type: 'runEdited', files: { ...files } });
        if (result.kind === 'rejected') throw new Error('the version this step began with no longer runs; mend it and press "Run my version".');
        playground.edits.message = 'The version this step began with runs again; the editor keeps your text.';
      },
      shipped: () => playground.edits.backToShipped(),
    },
    start,
  );
}
