/**
 * Every lesson's "Do it for me" solution as a differential script: the lesson's setup, then each
 * step's actions in order, written as steps of script.ts, so the whole solution runs in the worker
 * host and in the real host and the two are compared step by step. The lessons come from lessons/
 * (markdown), compiled by scripts/lessons.mjs; what each action does is the shared table's
 * (web/src/tutorial/lessonActions.ts), and `StepWriter` is this replay's driver of it.
 *
 * Every action becomes a step: page-only ones (a panel opened, a filter typed, an answer, the
 * editor's draft) a `pageOnly` step that both hosts trace, with what the panel reads that a host
 * holds too; "Run my version" the lesson step's prepared edits (scripts/break-it-variants.mjs).
 */
import { preparedEdits } from '../scripts/break-it-variants.mjs';
import { LESSONS } from '../scripts/lessons.mjs';
import type { LessonAction } from '../lessons/format/lessonSchema';
import { performAction, type LessonActionDriver, type LessonBranchTarget, type LessonEdit } from '../web/src/tutorial/lessonActions';
import type { Meanwhile, Script, Step } from './script';

/** What the page's buttons send (web/src/app: commandLine MEANWHILE_ITEM, sessionTree.tryOtherRevision, closingQuestion.runTwinTab). */
const MEANWHILE_RESERVE = { id: 'marigold-french', packets: 1 };
const OTHER_REVISION_ACT = { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: '$offBranch' };
const TWIN_COMMAND = '/seeds reserve marigold-french 3';

/** The lessons' revision placeholders in the script's names ("$previous" there is a tool result's). */
function toolArgs(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const value = args['expectedRevision'];
  if (value === '$latest') return { ...args, expectedRevision: '$latest' };
  if (value === '$previous') return { ...args, expectedRevision: '$previousResult' };
  return { ...args };
}

let prepared: Map<string, Record<string, string>> | undefined;
const editsOf = () => (prepared ??= preparedEdits());

/** A lone answer: the primitive it answers was not the one just before it in the step. */
function lone(kind: LessonAction['do']): Error {
  return new Error(`a lone "${kind}" action (it must follow a line or a tool call)`);
}

/**
 * The replay's driver: it runs nothing, it writes each primitive as the steps both hosts run. The
 * real host answers a command's dialog inside the command's own run (and what lands meanwhile
 * lands there too), and its approval prompt inside the tool call, so a dialog's answer and its
 * meanwhile belong to the command step just written, an approval to the tool step just written,
 * an agent's Steps to the run just chosen: those primitives amend that step instead of writing one.
 */
class StepWriter implements LessonActionDriver {
  readonly steps: Step[] = [];
  readonly labels: string[] = [];
  /** The lesson step being written (its prepared edits are bundled under that name). */
  private label = '';
  /** The command step just written, while its dialog may still be answered. */
  private command: { readonly index: number; readonly command: string; confirm?: boolean; meanwhile?: Meanwhile } | null = null;
  /** The tool step just written, while its approval prompt may still be answered. */
  private tool: { readonly index: number; readonly tool: Record<string, unknown> } | null = null;
  /** The agent run just chosen, while it may still be stepped (`calls` absent: it runs to its end). */
  private agent: { readonly index: number; readonly agent: 'careful' | 'careless'; calls?: number } | null = null;

  /** One lesson step's actions (`label` its id, or "setup"): nothing amends a step of another. */
  async write(label: string, actions: readonly LessonAction[]): Promise<void> {
    this.label = label;
    for (const action of actions) await performAction(this, action);
    this.settle();
  }

  private settle(): void {
    this.command = null;
    this.tool = null;
    this.agent = null;
  }

  /** A step of its own; the step before can no longer be amended. */
  private push(step: Step): number {
    this.settle();
    this.steps.push(step);
    this.labels.push(this.label);
    return this.steps.length - 1;
  }

  async line(text: string): Promise<void> {
    if (!text.startsWith('/')) {
      this.push({ say: text });
      return;
    }
    this.command = { index: this.push({ command: text }), command: text };
  }

  async answerDialog(confirmed: boolean): Promise<void> {
    const open = this.command;
    if (!open) throw lone(confirmed ? 'confirm' : 'cancel');
    open.confirm = confirmed;
    this.rewriteCommand(open);
    // Answered: nothing lands meanwhile any more.
    this.command = null;
  }

  async meanwhile(what: 'reserve' | 'step-back'): Promise<void> {
    const open = this.command;
    if (!open) throw lone(what === 'reserve' ? 'meanwhile-reserve' : 'meanwhile-step-back');
    open.meanwhile = what === 'reserve' ? { reserve: MEANWHILE_RESERVE } : { move: 'back' };
    this.rewriteCommand(open);
  }

  /** The command step in the script's field order (it is the trace's name for the step). */
  private rewriteCommand(open: NonNullable<StepWriter['command']>): void {
    const { index, command, confirm, meanwhile } = open;
    this.steps[index] = { command, ...(confirm !== undefined ? { confirm } : {}), ...(meanwhile ? { meanwhile } : {}) };
  }

  async stepBack(): Promise<void> {
    this.push({ move: 'back' });
  }

  async appendCorrupt(validAfter: boolean): Promise<void> {
    this.push({ corrupt: validAfter ? 'then-valid' : true });
  }

  async callTool(args: Readonly<Record<string, unknown>>): Promise<void> {
    const tool = toolArgs(args);
    this.tool = { index: this.push({ tool }), tool };
  }

  async answerApproval(approved: boolean): Promise<void> {
    const call = this.tool;
    if (!call) throw lone(approved ? 'approve' : 'deny');
    this.steps[call.index] = { tool: call.tool, approve: approved };
    this.tool = null;
  }

  async policy(value: Extract<Step, { policy: unknown }>['policy']): Promise<void> {
    this.push({ policy: value });
  }

  async approvalMode(value: Extract<Step, { approvalMode: unknown }>['approvalMode']): Promise<void> {
    this.push({ approvalMode: value });
  }

  async interactive(value: boolean): Promise<void> {
    this.push({ headless: !value });
  }

  // Page-only: no host holds a filter; both hosts read the seed desk lines of the session's file.
  async filterJournal(text: string): Promise<void> {
    this.push({ pageOnly: `filter-journal ${text}`, read: 'journal' });
  }

  async reopen(): Promise<void> {
    this.push({ reopen: true });
  }

  /** Each script starts in a new host, whose first session is the fresh one; within a script a new session is OMP's `/new`. */
  async newSession(): Promise<void> {
    this.push({ newSession: true });
  }

  async failNextWrite(): Promise<void> {
    this.push({ failNextWrite: true });
  }

  async branchFrom(target: LessonBranchTarget): Promise<void> {
    // A tree row found by its display text is the page's rendering; no lesson uses it.
    if (target.by === 'text') throw new Error(`${this.label}: "branch-from" has no real-host counterpart in test:host (a tree row found by its text); give the step another action`);
    this.push({ move: 'before-last-reservation' });
  }

  // Page-only: the Compare panel; both hosts read the desk here and on the other branch.
  async compareWithOtherBranch(): Promise<void> {
    this.push({ pageOnly: 'compare-with-other-branch', read: 'other-branch' });
  }

  async tryOtherRevision(): Promise<void> {
    this.push({ tool: { ...OTHER_REVISION_ACT } });
  }

  async twinTab(): Promise<void> {
    this.push({ twinTab: { command: TWIN_COMMAND } });
  }

  // Page-only: an answer reaches no host; the step still shows both hosts unchanged.
  async closingAnswer(value: 'yes' | 'no'): Promise<void> {
    this.push({ pageOnly: `closing-answer ${value}` });
  }

  async answerQuestion(value: 'yes' | 'no'): Promise<void> {
    this.push({ pageOnly: `answer ${value}` });
  }

  chooseAgent(agent: 'careful' | 'careless'): void {
    this.agent = { index: this.push({ agent }), agent };
  }

  async stepAgent(): Promise<void> {
    const run = this.agent;
    if (!run) throw new Error(`${this.label}: an agent's Step without an agent chosen just before it`);
    run.calls = (run.calls ?? 0) + 1;
    this.steps[run.index] = { agent: run.agent, calls: run.calls };
  }

  async runAgentToEnd(): Promise<void> {
    // A run just chosen and not stepped is a step that runs to its end; else the run so far goes on.
    if (this.agent && this.agent.calls === undefined) this.agent = null;
    else this.push({ agentContinue: true });
  }

  // Page-only: the editor's draft; nothing runs until "Run my version".
  async applyEdit(edit: LessonEdit): Promise<void> {
    this.push({ pageOnly: `apply-edit ${edit.file}` });
  }

  async runEdited(): Promise<void> {
    const files = editsOf().get(this.label);
    if (!files) throw new Error(`${this.label}: "run-edited" without a prepared edit in the same step`);
    this.push({ extension: 'edited', variant: this.label, files });
  }

  async shippedExtension(): Promise<void> {
    this.push({ extension: 'shipped' });
  }

  // Page-only: the editor's drafts back to the shipped files; nothing runs (wrong attempts use it, never a solution).
  async discardEdits(): Promise<void> {
    this.push({ pageOnly: 'discard-edits' });
  }

  // A lesson in "Your own extension" runs no Seed Desk: its solution is replayed as own scripts (ownLessonScripts.ts).
  async ownFiles(): Promise<void> {
    throw new Error(`${this.label}: "own-files" belongs to a lesson with own: true, replayed by ownLessonScripts.ts`);
  }

  async ownEdit(): Promise<void> {
    throw new Error(`${this.label}: "own-edit" belongs to a lesson with own: true, replayed by ownLessonScripts.ts`);
  }

  async runOwn(): Promise<void> {
    throw new Error(`${this.label}: "run-own" belongs to a lesson with own: true, replayed by ownLessonScripts.ts`);
  }
}

export interface LessonScript extends Script {
  /** The lesson's step ids (setup first), each of which must come out of the comparison with at least one step. */
  readonly lessonSteps: readonly string[];
}

export async function lessonScripts(): Promise<LessonScript[]> {
  const scripts: LessonScript[] = [];
  // A lesson in "Your own extension" runs the learner's extension, not the Seed Desk: ownLessonScripts.ts replays it.
  for (const lesson of LESSONS.filter((item) => item.own !== true)) {
    const writer = new StepWriter();
    await writer.write('setup', lesson.setup);
    for (const step of lesson.steps) await writer.write(step.id, step.solution);
    scripts.push({ name: `lesson-${lesson.id}`, about: lesson.title, steps: writer.steps, labels: writer.labels, lessonSteps: ['setup', ...lesson.steps.map((step) => step.id)] });
  }
  return scripts;
}
