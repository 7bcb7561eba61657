import 'fake-indexeddb/auto';
import { asSessionId, seededIdSource } from '$domain/ids';
import { AgentStepper, createAgent } from '$domain/agents/stepper';
import { ChangesSchema, type ComparisonView, type EditedVersion, type ExtensionKind, type EntryTarget, type LineOutcome, type ToolCallOutcome, type UiRequest } from '../protocol/messages';
import { factsOfOutcome, type OutcomeVia } from './outcomeFacts';
import { PlaygroundHost } from '../worker/playgroundHost';
import { JournalStore } from '../worker/store';
import { Watches } from '../worker/watches';
import { removeGuards } from '../worker/edit/guards';
import type { CheckResult, Fact, Observed, RunningExtension, StampedFact, ToolCaller } from './facts';
import { checkGoal } from './goals';
import type { CompiledStep, LessonAction } from '../../../lessons/format/lessonSchema';
import { SimulatedEdits, SimulatedOwn } from './simulatedEdits.testkit';
import { resetStep, settingsOf, stepStartOf, type StepStart } from './stepStart';
import { twinTabReserves } from './simulatedTabs.testkit';
import { fillRevisions, performAction, type LessonActionDriver } from './lessonActions';
import { observeToolCall } from '../app/agentObservation';

/**
 * The page, reduced to what the tutorial sees, over the real worker host (worker logic on
 * fake-indexeddb): it performs lesson actions by the table `app/actions.ts` reads (lessonActions.ts), records facts where
 * the page's features record them, and checks a step's goal the way the tutorial does. The lesson
 * tests replay every step's solution and every wrong attempt through it.
 */

let dbCounter = 0;
const opened: { store: JournalStore; name: string }[] = [];

/** Closes and deletes every database the pages opened (an afterEach hook). */
export async function closePages(): Promise<void> {
  // A page's worker ends with its pages, and with it the guards an edited extension put in.
  removeGuards();
  const names = new Set(opened.map((entry) => entry.name));
  for (const { store } of opened.splice(0)) store.close();
  for (const name of names) {
    await new Promise<void>((resolve) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    });
  }
}

/**
 * The page, reduced to what the tutorial sees: it performs lesson actions through the host by the
 * table `app/actions.ts` reads, records facts where the page's features record them, and holds the
 * comparison the way the page does: a watched topic, updated from the changes that follow every
 * request (parsed with the page's schema). What the extension asks of the UI is held as the
 * command line holds it (`pending`) and answered through the host's `answerUi`, as the worker's
 * handler does; every outcome's facts come from the page's own table (outcomeFacts.ts).
 */
export class SimulatedPage {
  private readonly edits = new SimulatedEdits();
  private readonly own = new SimulatedOwn();
  private facts: StampedFact[] = [];
  private seq = 0;
  /** What the extension waits for (the command line's `pending`). */
  private pending: UiRequest | null = null;
  private pendingApproval: { callId: string; args: string; by?: ToolCaller } | null = null;
  private readonly watches = new Watches();
  private comparison: ComparisonView | null = null;
  private compareMissing: string | null = null;
  private journalFilter = '';
  private journalLines: string[] = [];
  /** The Agents tab's run (`run-agent`, `continue-agent`). */
  private agent: AgentStepper | null = null;

  constructor(
    private readonly host: PlaygroundHost,
    private readonly store: JournalStore,
  ) {
  }

  /** As the command line's `settle`: the outcome's facts from the page's table, and a request kept when the extension asked. */
  private settle(outcome: LineOutcome, via: OutcomeVia, typed: string): void {
    for (const fact of factsOfOutcome(outcome, via, typed)) this.note(fact, outcome.own ? 'own' : outcome.by, outcome.version);
    this.pending = outcome.kind === 'asked' ? outcome.request : null;
  }

  /** Confirm or Cancel in the open dialog; the answer's run has ended when this resolves (as the page's `answerUi` request). */
  private async answerDialog(confirmed: boolean): Promise<void> {
    const request = this.pending;
    if (request?.kind !== 'confirm') throw new Error('No dialog is open.');
    this.pending = null;
    this.settle(await this.host.answerUi({ kind: 'confirm', id: request.id, confirmed }), 'answer', '');
  }

  /** The step's goal, judged on what happened since `from` (the step's start), as the tutorial judges it. */
  async check(step: Pick<CompiledStep, 'goal'>, from: number): Promise<CheckResult> {
    return checkGoal(step.goal, await this.observed(from));
  }

  /** Does every action in turn. */
  async performAll(actions: readonly LessonAction[]): Promise<void> {
    for (const action of actions) await this.perform(action);
  }

  get nextSeq(): number {
    return this.seq + 1;
  }

  /** As the page's FactLog: numbered, and stamped with the extension that produced it (the one the host runs, unless the answer said). */
  private note(fact: Fact, extension?: RunningExtension, version?: EditedVersion): void {
    const view = this.host.view();
    const by = extension ?? (view.own ? 'own' : view.extension) ?? 'shipped';
    const edited = extension === undefined ? view.editedVersion : version;
    this.facts.push({ ...fact, seq: ++this.seq, extension: by, ...(by === 'edited' && edited ? { version: edited } : {}) } as StampedFact);
  }

  async observed(from: number): Promise<Observed> {
    await this.sync();
    return {
      view: this.host.view(),
      facts: this.facts.filter((fact) => fact.seq >= from),
      branch: this.host.branch(),
      events: this.host.events(),
      journalFilter: this.journalFilter,
      journalLines: this.journalLines,
      comparison: this.comparison,
    };
  }

  /** What the worker sends after a request, as the page folds it in (the comparison and the Journal panel's lines). */
  private async sync(): Promise<void> {
    const changes = ChangesSchema.parse(await this.watches.changes(this.host.core));
    for (const update of changes.updates) {
      if (update.topic === 'journal') this.journalLines = update.mode === 'append' ? [...this.journalLines, ...update.lines] : update.lines;
      if (update.topic !== 'compare') continue;
      this.comparison = update.comparison;
      this.compareMissing = update.missing;
    }
  }

  private deskEntries(): number {
    return this.host.view().seedDeskEntryCount;
  }

  private since(before: number): { before: number; after: number } {
    return { before, after: this.deskEntries() };
  }

  private async callTool(args: string, by: ToolCaller = 'you'): Promise<ToolCallOutcome> {
    const before = this.deskEntries();
    const outcome = await this.host.callTool(args, false);
    const caller = by === 'you' ? {} : { by };
    if (outcome.kind === 'approval') this.pendingApproval = { callId: outcome.callId, args, ...caller };
    else this.note({ kind: 'tool', args, outcome, deskEntries: this.since(before), ...caller });
    return outcome;
  }

  async perform(action: LessonAction): Promise<void> {
    await performAction(this.driver, action);
    await this.sync();
  }

  /**
   * The simulated page's driver of the lesson actions (the shared table, lessonActions.ts): each
   * primitive through the host as the page's path reaches it, noting the facts the page's
   * features note.
   */
  private readonly driver: LessonActionDriver = {
    line: async (text) => {
      // The page turns a line away while its dialog waits; a lesson that tried would be wrong.
      if (this.pending !== null) throw new Error(`A dialog is still open when the lesson types ${text}.`);
      this.settle(await this.host.runLine(text), 'line', text.trim());
    },
    answerDialog: (confirmed) => this.answerDialog(confirmed),
    meanwhile: async (what) => {
      if (what === 'step-back') {
        this.host.stepBack();
        return this.note({ kind: 'meanwhile', what });
      }
      const outcome = await this.host.meanwhileReserve('marigold-french', 1);
      this.note({ kind: 'meanwhile', what }, outcome.by, outcome.version);
      if (outcome.kind === 'committed') this.note({ kind: 'committed', change: outcome.change, via: 'meanwhile' }, outcome.by, outcome.version);
    },
    stepBack: async () => {
      this.host.stepBack();
      this.note({ kind: 'navigated', entryId: this.host.view().leafId });
    },
    appendCorrupt: async (validAfter) => {
      const outcome = await this.host.appendCorruptSnapshot(validAfter ? 'valid' : undefined);
      if (outcome.kind !== 'failed') this.note({ kind: 'corrupted', validAfter });
    },
    callTool: async (args) => void (await this.callTool(JSON.stringify(fillRevisions(args, this.facts)))),
    answerApproval: async (approved) => {
      const pending = this.pendingApproval;
      if (!pending) throw new Error('No approval prompt is waiting.');
      this.pendingApproval = null;
      const before = this.deskEntries();
      const outcome = await this.host.answerApproval(pending.callId, approved);
      this.note({ kind: 'tool', args: pending.args, outcome, deskEntries: this.since(before), ...(pending.by ? { by: pending.by } : {}) });
    },
    policy: async (value) => {
      this.host.setApprovalPolicy(value);
      this.note({ kind: 'policy', value });
    },
    approvalMode: async (value) => {
      this.host.setApprovalMode(value);
      this.note({ kind: 'approval-mode', value });
    },
    interactive: async (value) => {
      this.host.setInteractive(value);
      this.note({ kind: 'interactive', value });
    },
    filterJournal: async (text) => {
      this.journalFilter = text;
      this.watches.watch({ topic: 'journal', filter: text }, this.host.core);
    },
    reopen: async () => {
      const { leafId: from, leafBehind: behind } = this.host.view();
      await this.host.reopen();
      this.note({ kind: 'reopened', from, to: this.host.view().leafId, behind });
    },
    newSession: async (fresh) => {
      await this.host.newSession(fresh);
      this.note({ kind: 'new-session' });
    },
    failNextWrite: async () => this.host.injectFault('abort'),
    branchFrom: async (target) => this.branchFrom(target),
    compareWithOtherBranch: async () => {
      this.watches.watch({ topic: 'compare', other: { by: 'newest-off-branch' } }, this.host.core);
      await this.sync();
      if (this.compareMissing !== null) throw new Error(this.compareMissing);
    },
    tryOtherRevision: async () => {
      // As `SessionTree.tryOtherRevision`: only the agent's act carries a revision of its own choosing.
      const before = this.deskEntries();
      const { comparison } = await this.observed(this.nextSeq);
      if (!comparison) throw new Error('Nothing is being compared.');
      const revision = comparison.right.revision;
      const outcome = await this.callTool(JSON.stringify({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision }));
      if (outcome.kind === 'result' && outcome.details?.code) this.note({ kind: 'refused', code: outcome.details.code, via: 'compare', change: null, deskEntries: this.since(before) });
    },
    twinTab: () => twinTabReserves(this.host, this.store, 4242 + dbCounter, (fact) => this.note(fact)),
    closingAnswer: async (value) => this.note({ kind: 'closing-answer', value }),
    answerQuestion: async (value) => this.note({ kind: 'question-answer', question: '(this step)', value }),
    chooseAgent: (agent) => {
      this.agent = new AgentStepper(createAgent(agent));
    },
    stepAgent: () => this.startedAgent().step(this.agentCall),
    runAgentToEnd: () => this.startedAgent().runToEnd(this.agentCall),
    applyEdit: (edit) => this.edits.apply(edit),
    runEdited: () => this.edits.run(this.host),
    shippedExtension: () => this.edits.shipped(this.host),
    discardEdits: async () => this.edits.discard(),
    ownFiles: async (from) => this.own.begin(from),
    ownEdit: async (edit) => this.own.edit(edit),
    runOwn: async () => {
      await this.own.run(this.host);
      this.note({ kind: 'own-ran' }, 'own');
    },
  };

  /** The Agents tab's run; "Run to end" with none started is a lesson's mistake. */
  private startedAgent(): AgentStepper {
    if (!this.agent) throw new Error('No scripted agent has been started.');
    return this.agent;
  }

  /** One call of the scripted agent, through the same host path as the tool panel; the agent sees what the page shows it. */
  private readonly agentCall = async (args: Record<string, unknown>) => observeToolCall(await this.callTool(JSON.stringify(args), this.startedAgent().agent.name));

  /** What the tutorial records when a step begins (`Tutorial.captureStart`). */
  async stepStart(): Promise<StepStart> {
    const view = this.host.view();
    const files = settingsOf(view).extension === 'edited' ? ((await this.host.storedEdits())?.files ?? null) : null;
    return stepStartOf(view, this.host.branch(), files);
  }

  /** "Reset this step", with the same plan and moves as the page (`app/actions.ts`), each through the host as the page's path reaches it. */
  async resetStep(start: StepStart): Promise<string | null> {
    const sentence = await resetStep(
      {
        view: () => this.host.view(),
        runningFiles: async () => (await this.host.storedEdits())?.files ?? null,
        switchSession: async (sessionId) => void (await this.host.switchSession(asSessionId(sessionId))),
        selectEntry: async (id) => this.branchFrom({ by: 'id', id }),
        stepBack: () => this.perform({ do: 'step-back' }),
        approvalMode: (value) => this.perform({ do: 'approval-mode', value }),
        policy: (value) => this.perform({ do: 'policy', value }),
        interactive: (value) => this.perform({ do: 'interactive', value }),
        runFiles: (files) => this.edits.restore(this.host, files),
        shipped: () => this.perform({ do: 'shipped-extension' }),
      },
      start,
    );
    await this.sync();
    return sentence;
  }

  /** The tree's "Branch from here": the worker finds the entry; the fact records where the leaf went. */
  private branchFrom(target: EntryTarget): void {
    this.host.navigate(target);
    this.note({ kind: 'navigated', entryId: this.host.view().leafId });
  }
}

export async function openPage(): Promise<SimulatedPage> {
  const name = `lessons-test-${++dbCounter}`;
  const store = await JournalStore.open(name);
  opened.push({ store, name });
  const host = await PlaygroundHost.start(store, seededIdSource(100 + dbCounter));
  return new SimulatedPage(host, store);
}
