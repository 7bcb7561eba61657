import type { LessonAction } from '../../../lessons/format/lessonSchema';
import { draftsWithEdit, fillRevisions, ownTextWithEdit, performAction, type LessonActionDriver, type LessonEdit } from '../tutorial/lessonActions';
import { resetStep, type StepStart } from '../tutorial/stepStart';
import { agentRunnerOf } from './agentRunner.svelte';
import { MEANWHILE_ITEM, STEP_BACK_PAST_INVALID, type Playground } from './playground.svelte';
import { OWN_ENTRY } from './ownExtension.svelte';
import { appendCorrupt } from './refusalDemos';

/**
 * The page's driver of the lesson actions: the methods the buttons call, each awaited until it
 * has settled, so the next action sees its result. What each action does is the shared table's
 * (tutorial/lessonActions.ts).
 */
function pageDriver(playground: Playground): LessonActionDriver {
  const agents = () => agentRunnerOf(playground);
  return {
    // The line's answer has arrived when this resolves; a dialog it opened is open by then.
    line: (text) => playground.command.runLine(text),
    // The line that opened the dialog has resolved with it open; Confirm and Cancel resolve once the run they resume has ended.
    async answerDialog(confirmed) {
      if (playground.command.pending?.kind !== 'confirm') throw new Error('No confirmation is open to answer.');
      await (confirmed ? playground.command.confirm() : playground.command.cancel());
    },
    meanwhile: (what) => (what === 'reserve' ? playground.command.meanwhileReserve(MEANWHILE_ITEM, 1) : playground.command.stepBack()),
    stepBack: () => playground.command.stepBack(STEP_BACK_PAST_INVALID, 'navigated'),
    appendCorrupt: (validAfter) => appendCorrupt(playground, validAfter),
    callTool: (args) => playground.tool.call(JSON.stringify(fillRevisions(args, playground.facts.facts)), false).then(() => undefined),
    // The call that asked has resolved with the prompt up; the answer resolves once the call has ended.
    answerApproval: (approved) => playground.tool.answerApproval(approved),
    policy: (value) => playground.tool.setApprovalPolicy(value),
    approvalMode: (value) => playground.tool.setApprovalMode(value),
    interactive: (value) => playground.tool.setInteractive(value),
    filterJournal: (text) => playground.journal.show(text),
    reopen: () => playground.sessions.reopen(),
    newSession: (fresh) => playground.sessions.newSession(fresh),
    failNextWrite: () => playground.sessions.failNextWrite('abort'),
    branchFrom: (target) => playground.tree.branchFrom(target),
    compareWithOtherBranch: () => playground.tree.compare({ by: 'newest-off-branch' }),
    tryOtherRevision: () => playground.tryOtherRevision(),
    twinTab: () => playground.closing.runTwinTab().then(() => undefined),
    closingAnswer: async (value) => playground.closing.give(value),
    answerQuestion: async (value) => playground.closing.answerQuestion(value),
    chooseAgent: (agent) => agents().choose(agent),
    stepAgent: () => agents().step(),
    runAgentToEnd: () => agents().runToEnd(),
    applyEdit: (edit) => applyEdit(playground, edit),
    async runEdited() {
      await playground.edits.run();
      if (playground.edits.problems.length > 0 || playground.view?.extension !== 'edited') throw new Error(playground.edits.message ?? 'Your version did not run.');
    },
    async shippedExtension() {
      if (playground.view?.extension === 'edited') await playground.edits.backToShipped();
    },
    discardEdits: async () => playground.edits.discard(),
    async ownFiles(from) {
      await playground.own.enter();
      await playground.own.begin(from);
    },
    async ownEdit(edit) {
      await playground.own.enter();
      playground.own.useEntryText(ownTextWithEdit(playground.own.drafts[OWN_ENTRY] ?? '', edit));
    },
    async runOwn() {
      await playground.own.run();
      if (playground.own.problems.length > 0 || !playground.own.running) throw new Error(playground.own.message ?? 'Your extension did not run.');
    },
  };
}

/** Performs one lesson action through the page's own paths (the methods the buttons call) and waits until it has settled. */
export async function perform(playground: Playground, action: LessonAction): Promise<void> {
  await performAction(pageDriver(playground), action);
}

/** As the editor's find and replace, on the extension's shipped files as the Code tab loads them. */
async function applyEdit(playground: Playground, edit: LessonEdit): Promise<void> {
  const { loadExtensionSource } = await import('./extensionSource');
  const shipped = (await loadExtensionSource()).files.find((file) => file.path === edit.file)?.text;
  playground.edits.useDrafts(draftsWithEdit(playground.edits.drafts, shipped, edit));
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
        // The version the step began with, not the editor's text: the learner's typing stays in the
        // editor (after "Discard my edits", the editor shows that version, to be changed).
        const result = await playground.connection.call({ type: 'runEdited', files: { ...files }, from: 'restore' });
        if (result.kind === 'rejected') throw new Error('the version this step began with no longer runs; mend it and press "Run my version".');
        const kept = playground.edits.edited;
        playground.edits.resumeFrom(files);
        playground.edits.message = kept ? 'The version this step began with runs again; the editor keeps your text.' : 'The version this step began with runs again, and the editor shows it: make your change there.';
      },
      shipped: () => playground.edits.backToShipped(),
    },
    start,
  );
}
