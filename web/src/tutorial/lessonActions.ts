import type { LessonAction } from '../../../lessons/format/lessonSchema';
import type { Fact } from './facts';

/**
 * What each lesson action does, once, for every runner that replays lessons: the page's "Do it
 * for me" (app/actions.ts), the simulated page of the unit tests (simulatedPage.testkit.ts) and
 * the real-OMP replay of test:host (host-test/lessonScripts.ts). Each runner supplies a driver:
 * the few things a learner can do on the page, done its own way (the page through the methods
 * its buttons call, the simulated page through the worker host, the replay by writing the steps
 * its two hosts run). An action kind is added to the schema, then here, and every runner has it.
 *
 * Imports only types: the replay loads this under Bun and Node, outside Vite.
 */

export type LessonActionKind = LessonAction['do'];
export type LessonActionOf<K extends LessonActionKind> = Extract<LessonAction, { do: K }>;

/** Where the tree's "Branch from here" goes, as a lesson names it (the protocol's `EntryTarget`, these two kinds). */
export type LessonBranchTarget = { readonly by: 'text'; readonly text: string } | { readonly by: 'before-last-reservation' };

/** One of "Break it"'s prepared edits: in `file`, the text `find` (once) becomes `replace`. */
export type LessonEdit = Omit<LessonActionOf<'apply-edit'>, 'do'>;

/**
 * The primitives the runners share. Each resolves once what it did has settled, so the next one
 * sees its result. Tool arguments arrive with the lesson's revision placeholders ("$latest",
 * "$previous") still in them: each runner knows the revisions its own way (`fillRevisions`).
 */
export interface LessonActionDriver {
  /** The command line: a line typed and sent (a `/seeds` command, or words to the agent). */
  line(text: string): Promise<void>;
  /** Confirm (true) or Cancel (false) in the dialog the last line opened. */
  answerDialog(confirmed: boolean): Promise<void>;
  /** While that dialog waits: another action lands (the dialog's "Meanwhile" buttons). */
  meanwhile(what: 'reserve' | 'step-back'): Promise<void>;
  /** Outside any dialog, the leaf steps back to its parent (the Refusals panel's "Step back past the invalid entry"). */
  stepBack(): Promise<void>;
  /** The Refusals panel's demo: an invalid snapshot appended; `validAfter`, then a valid one after it. */
  appendCorrupt(validAfter: boolean): Promise<void>;
  /** The tool panel's seed_desk call. */
  callTool(args: Readonly<Record<string, unknown>>): Promise<void>;
  /** Approve (true) or Deny (false) at the host's approval prompt the last call raised. */
  answerApproval(approved: boolean): Promise<void>;
  policy(value: LessonActionOf<'policy'>['value']): Promise<void>;
  approvalMode(value: LessonActionOf<'approval-mode'>['value']): Promise<void>;
  interactive(value: boolean): Promise<void>;
  /** The Journal panel's filter. */
  filterJournal(text: string): Promise<void>;
  /** The Sessions panel's "Reopen": the host exits and opens the session again. */
  reopen(): Promise<void>;
  /** `fresh`: the session a new host process starts (a lesson's start); else OMP's `/new`. */
  newSession(fresh: boolean): Promise<void>;
  /** The next write to storage fails, once. */
  failNextWrite(): Promise<void>;
  branchFrom(target: LessonBranchTarget): Promise<void>;
  /** The Compare panel, on the newest seed desk entry off the current branch. */
  compareWithOtherBranch(): Promise<void>;
  /** The Compare panel's act on this branch with the compared branch's revision. */
  tryOtherRevision(): Promise<void>;
  /** "Another tab" reserves all 3 marigolds, standing before this tab's last reservation. */
  twinTab(): Promise<void>;
  closingAnswer(value: 'yes' | 'no'): Promise<void>;
  /** The step's own Yes/No question. */
  answerQuestion(value: 'yes' | 'no'): Promise<void>;
  /** The Agents tab: an agent chosen, its run started afresh (nothing is called yet). */
  chooseAgent(agent: LessonActionOf<'run-agent'>['agent']): void;
  /** The Agents tab's "Step": one call of the run. */
  stepAgent(): Promise<void>;
  /** The Agents tab's "Run to end": the run goes on to its end. */
  runAgentToEnd(): Promise<void>;
  /** The Code tab's editor: one prepared edit in the drafts (nothing runs yet). */
  applyEdit(edit: LessonEdit): Promise<void>;
  /** "Run my version". */
  runEdited(): Promise<void>;
  /** "Back to the shipped extension" (nothing when the shipped one runs). */
  shippedExtension(): Promise<void>;
  /** "Discard my edits": the editor's drafts back to the shipped files (the running extension stays). */
  discardEdits(): Promise<void>;
  /** "Your own extension" (issue 37): its files begin again from a start the workspace offers (nothing runs). */
  ownFiles(from: string): Promise<void>;
  /** The own workspace's editor: in `my-extension.ts`, `find` (once) becomes `replace`. */
  ownEdit(edit: Omit<LessonActionOf<'own-edit'>, 'do'>): Promise<void>;
  /** The own workspace's "Run my version". */
  runOwn(): Promise<void>;
}

/** Every action kind's entry: a new kind in the schema without one here does not compile. */
export type LessonActionTable = { readonly [K in LessonActionKind]: (driver: LessonActionDriver, action: LessonActionOf<K>) => Promise<void> };

export const LESSON_ACTIONS: LessonActionTable = {
  line: (driver, action) => driver.line(action.text),
  confirm: (driver) => driver.answerDialog(true),
  cancel: (driver) => driver.answerDialog(false),
  'meanwhile-reserve': (driver) => driver.meanwhile('reserve'),
  'meanwhile-step-back': (driver) => driver.meanwhile('step-back'),
  'step-back': (driver) => driver.stepBack(),
  'corrupt-demo': (driver) => driver.appendCorrupt(false),
  'corrupt-then-valid': (driver) => driver.appendCorrupt(true),
  tool: (driver, action) => driver.callTool(action.args),
  approve: (driver) => driver.answerApproval(true),
  deny: (driver) => driver.answerApproval(false),
  policy: (driver, action) => driver.policy(action.value),
  'approval-mode': (driver, action) => driver.approvalMode(action.value),
  interactive: (driver, action) => driver.interactive(action.value),
  'filter-journal': (driver, action) => driver.filterJournal(action.text),
  reopen: (driver) => driver.reopen(),
  'branch-from': (driver, action) => driver.branchFrom({ by: 'text', text: action.text }),
  'branch-before-last-reservation': (driver) => driver.branchFrom({ by: 'before-last-reservation' }),
  'compare-with-other-branch': (driver) => driver.compareWithOtherBranch(),
  'try-other-revision': (driver) => driver.tryOtherRevision(),
  'new-session': (driver, action) => driver.newSession(action.fresh === true),
  'twin-tab': (driver) => driver.twinTab(),
  'fail-next-write': (driver) => driver.failNextWrite(),
  'closing-answer': (driver, action) => driver.closingAnswer(action.value),
  answer: (driver, action) => driver.answerQuestion(action.value),
  // As on the Agents tab: choose the agent (a fresh run), then Step `calls` times, or Run to end.
  'run-agent': async (driver, action) => {
    driver.chooseAgent(action.agent);
    if (action.calls === undefined) await driver.runAgentToEnd();
    else for (let call = 0; call < action.calls; call++) await driver.stepAgent();
  },
  'continue-agent': (driver) => driver.runAgentToEnd(),
  'apply-edit': (driver, { file, find, replace }) => driver.applyEdit({ file, find, replace }),
  'run-edited': (driver) => driver.runEdited(),
  'shipped-extension': (driver) => driver.shippedExtension(),
  'discard-edits': (driver) => driver.discardEdits(),
  'own-files': (driver, action) => driver.ownFiles(action.from),
  'own-edit': (driver, { find, replace }) => driver.ownEdit({ find, replace }),
  'run-own': (driver) => driver.runOwn(),
};

/** Does one lesson action with `driver`. */
export function performAction(driver: LessonActionDriver, action: LessonAction): Promise<void> {
  // The table is keyed by kind, so the entry for `action.do` takes exactly this action (a union
  // TypeScript cannot correlate with the key on its own).
  const perform = LESSON_ACTIONS[action.do] as (driver: LessonActionDriver, action: LessonAction) => Promise<void>;
  return perform(driver, action);
}

/**
 * The lesson's "$latest" and "$previous" in tool arguments: the revisions the tool results among
 * `facts` returned, newest last, without repeats in a row. Unresolved, a placeholder stays as it
 * is, and the desk then refuses it.
 */
export function fillRevisions(args: Readonly<Record<string, unknown>>, facts: readonly Fact[]): Record<string, unknown> {
  const revisions: string[] = [];
  for (const fact of facts) {
    if (fact.kind !== 'tool' || fact.outcome.kind !== 'result') continue;
    const revision = fact.outcome.details?.revision;
    if (revision && revisions.at(-1) !== revision) revisions.push(revision);
  }
  const fill = (value: unknown): unknown => (value === '$latest' ? (revisions.at(-1) ?? value) : value === '$previous' ? (revisions.at(-2) ?? value) : value);
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, fill(value)]));
}

/** The own extension's entry file after one prepared edit (`find` once becomes `replace`). */
export function ownTextWithEdit(text: string, edit: Omit<LessonActionOf<'own-edit'>, 'do'>): string {
  if (text.split(edit.find).length !== 2) throw new Error(`my-extension.ts does not hold this text exactly once: ${edit.find}`);
  return text.replace(edit.find, edit.replace);
}

/**
 * The editor's drafts after one prepared edit, as its find and replace does it: in the file's
 * current text (its draft, else `shipped`), `find` once becomes `replace`; a file back to its
 * shipped text is no draft.
 */
export function draftsWithEdit(drafts: Readonly<Record<string, string>>, shipped: string | undefined, edit: LessonEdit): Record<string, string> {
  if (shipped === undefined) throw new Error(`${edit.file} is not one of the extension's files.`);
  const current = drafts[edit.file] ?? shipped;
  if (current.split(edit.find).length !== 2) throw new Error(`${edit.file} does not hold this text exactly once: ${edit.find}`);
  const text = current.replace(edit.find, edit.replace);
  const next: Record<string, string> = { ...drafts, [edit.file]: text };
  if (text === shipped) delete next[edit.file];
  return next;
}
