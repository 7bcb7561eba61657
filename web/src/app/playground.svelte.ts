import { tick } from 'svelte';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { parseSeedsArgs, splitSlashCommand } from '$domain/command/parse';
import { approvalMachine } from '../machines/approval';
import { confirmationMachine } from '../machines/confirmation';
import { leafReturnNotice } from '../protocol/leafNotice';
import { LeafBehindSchema } from '../protocol/messages';
import type {
  ApprovalModeView,
  ApprovalPolicy,
  CommitOutcomeView,
  ComparisonView,
  DeskChange,
  HostView,
  ImportReport,
  LeafBehind,
  LineOutcome,
  RequestBody,
  RequestType,
  SessionSummary,
  ToolCallOutcome,
  TreeFilter,
  TreeRowView,
} from '../protocol/messages';
import type { DeskEntryCounts, Fact, StampedFact } from '../lessons/facts';
import { WorkerClient, WorkerError, type Answer } from './workerClient';

/** The race's "another action": a seed the race is not about, so the race leaves basil and bean alone. */
export const MEANWHILE_ITEM = 'marigold-french';
export const STEP_BACK_PAST_INVALID = 'The leaf moved back past the invalid entry.';

export const ROUND_TRIP_MEASURE = 'seed-desk:worker-round-trip';
export const TREE_RENDER_MEASURE = 'seed-desk:tree-render';

export interface OutputLine {
  readonly seq: number;
  readonly kind: 'input' | 'answer' | 'said' | 'usage' | 'refused' | 'failed' | 'committed' | 'cancelled' | 'info';
  readonly text: string;
}

/** True for the `/seeds` lines that change the desk and therefore go through a confirmation. */
export function isHumanMutation(line: string): boolean {
  const slash = splitSlashCommand(line.trim());
  if (!slash || slash.name !== 'seeds') return false;
  const command = parseSeedsArgs(slash.args);
  return command.kind === 'reservation' || command.kind === 'grant';
}

/**
 * The page's state: the last view the worker reported, the command transcript, and the
 * confirmation actor. Components render it and call its methods; they hold no domain logic.
 */
export class Playground {
  view = $state.raw<HostView | null>(null);
  output = $state.raw<OutputLine[]>([]);
  dialog = $state.raw<SnapshotFrom<typeof confirmationMachine>>();
  /** The journal panel's lines: filtered in the worker, so a 100k-entry journal never crosses whole. */
  journal = $state.raw<{ lineCount: number; matchCount: number; lines: string[] }>({ lineCount: 0, matchCount: 0, lines: [] });
  journalFilter = $state('');
  /** The view and filter the journal lines were read for: behind the desk until the refresh lands. */
  private journalReadFor = $state.raw('');
  tree = $state.raw<{ rows: TreeRowView[]; leafId: string | null }>({ rows: [], leafId: null });
  treeFilter = $state<TreeFilter>('all');
  sessions = $state.raw<SessionSummary[]>([]);
  comparison = $state.raw<ComparisonView | null>(null);
  compareWith = $state.raw<string | null>(null);
  importProgress = $state.raw<{ phase: string; done: number; total: number } | null>(null);
  importReport = $state.raw<ImportReport | null>(null);
  /** Set when the worker itself failed (not a refusal): shown as an alert. */
  error = $state.raw<string | null>(null);
  /** Said once after a reload that undid a navigation which had appended nothing. */
  reloadNotice = $state.raw<string | null>(null);

  /** The last seed_desk outcome, shown as text and details. */
  toolOutcome = $state.raw<ToolCallOutcome | null>(null);
  /** The revision from the latest tool result: "use latest revision" fills it in; nothing refreshes it silently. */
  latestToolRevision = $state.raw<string | null>(null);
  approval = $state.raw<SnapshotFrom<typeof approvalMachine>>();

  /** What the learner did, for the tutorial's checkpoints (bounded). */
  facts = $state.raw<StampedFact[]>([]);
  private factSeq = 0;

  private seq = 0;
  private readonly client: WorkerClient;
  readonly confirmation;
  readonly approvalActor;

  constructor(worker: Worker) {
    this.client = new WorkerClient(worker);
    this.client.onNotice = (text) => (this.error = text);
    this.client.onPush = (view, reason) => {
      if (reason === 'foreign') this.note({ kind: 'foreign-append' });
      this.noteView(view, reason === 'sessions');
    };
    this.confirmation = createActor(
      confirmationMachine.provide({
        actors: {
          prepare: fromPromise(async ({ input }) => (await this.call({ type: 'line', text: input.line })).result),
          commit: fromPromise(async ({ input }) => (await this.call({ type: 'commit', change: input.change, expectedRevision: input.expectedRevision })).result),
        },
      }),
    );
    this.dialog = this.confirmation.getSnapshot();
    this.confirmation.subscribe((snapshot) => {
      const before = this.dialog?.value;
      this.dialog = snapshot;
      if (before !== snapshot.value) this.reportDialog(snapshot);
    });
    this.confirmation.start();

    this.approvalActor = createActor(
      approvalMachine.provide({
        actors: { answer: fromPromise(async ({ input }) => (await this.call({ type: 'answerApproval', callId: input.callId, approved: input.approved })).result) },
      }),
    );
    this.approval = this.approvalActor.getSnapshot();
    this.approvalActor.subscribe((snapshot) => {
      const settledNow = this.approval?.value !== 'idle' && snapshot.value === 'idle';
      this.approval = snapshot;
      if (settledNow && snapshot.context.outcome) this.showToolOutcome(snapshot.context.outcome);
    });
    this.approvalActor.start();
  }

  /** Calls seed_desk through the host: schema, approval, domain. Returns the outcome it showed. */
  async callTool(args: string, skipSchema: boolean): Promise<ToolCallOutcome> {
    const before = this.deskEntryCount();
    const { result } = await this.call({ type: 'toolCall', args, skipSchema });
    this.pendingToolArgs = args;
    this.pendingToolBefore = before;
    if (result.kind === 'approval') {
      this.toolOutcome = result;
      this.approvalActor.send({ type: 'ASK', callId: result.callId, prompt: result.prompt });
      return result;
    }
    this.showToolOutcome(result);
    return result;
  }

  /** Sends the answer to the approval machine; the call finishes when it is back in `idle`. */
  answerApproval(approved: boolean): void {
    // The call runs now, so "before" is the journal as it stands when the answer is given.
    this.pendingToolBefore = this.deskEntryCount();
    this.approvalActor.send({ type: approved ? 'APPROVE' : 'DENY' });
  }

  /** A line straight to the host, bypassing the dialog: used by demos that expect a refusal before any dialog. */
  async probeLine(text: string, headless = false): Promise<LineOutcome> {
    const { result } = await this.call({ type: 'line', text, headless });
    return result;
  }

  /** Seed desk entries in the journal as the page last saw it. */
  private deskEntryCount(): number {
    return this.view?.seedDeskEntryCount ?? 0;
  }

  private countsSince(before: number): DeskEntryCounts {
    return { before, after: this.deskEntryCount() };
  }

  /** A human commit with a chosen expected revision, as a dialog would send it after Confirm. */
  async probeCommit(change: DeskChange, expectedRevision: string, via: 'dialog' | 'compare' = 'dialog'): Promise<CommitOutcomeView> {
    const before = this.deskEntryCount();
    const { result } = await this.call({ type: 'commit', change, expectedRevision });
    if (result.kind === 'refused') this.note({ kind: 'refused', code: result.code, via, deskEntries: this.countsSince(before) });
    if (result.kind === 'committed') this.note({ kind: 'committed', change, via: 'dialog' });
    return result;
  }

  /** `null`: no user policy for seed_desk, as in a host whose config names none. */
  async setApprovalPolicy(policy: ApprovalPolicy | null): Promise<void> {
    await this.call({ type: 'setApprovalPolicy', policy });
    this.note({ kind: 'policy', value: policy });
  }

  async setApprovalMode(mode: ApprovalModeView): Promise<void> {
    await this.call({ type: 'setApprovalMode', mode });
    this.note({ kind: 'approval-mode', value: mode });
  }

  async corruptDemo(): Promise<void> {
    const { result } = await this.call({ type: 'corruptDemo' });
    this.print(result.kind === 'committed' ? 'info' : result.kind, result.message);
  }

  private pendingToolArgs = '';
  private pendingToolBefore = 0;
  /** Seed desk entries when the open dialog was requested, then when it was answered. */
  private dialogBefore = 0;

  private showToolOutcome(outcome: ToolCallOutcome): void {
    this.note({ kind: 'tool', args: this.pendingToolArgs, outcome, deskEntries: this.countsSince(this.pendingToolBefore) });
    this.toolOutcome = outcome;
    if (outcome.kind === 'result' && outcome.details?.revision) this.latestToolRevision = outcome.details.revision;
  }

  async start(): Promise<void> {
    const before = readLeafMemo();
    const { view } = await this.call({ type: 'hello' });
    if (before && before.sessionId === view.sessionId && before.behind && before.leafId !== view.leafId) {
      this.reloadNotice = leafReturnNotice('reload', before.behind, before.leafId, view.leafId);
    }
  }

  /** Runs what the learner typed in the command line. */
  async runLine(line: string): Promise<void> {
    const text = line.trim();
    if (text.length === 0) return;
    this.print('input', text);
    const before = this.deskEntryCount();
    if (isHumanMutation(text)) {
      this.dialogBefore = before;
      if (this.dialogIsBusy()) {
        this.print('usage', 'A confirmation is already open: confirm or cancel it first.');
        return;
      }
      this.confirmation.send({ type: 'REQUEST', line: text });
      return;
    }
    const { result } = await this.call({ type: 'line', text });
    if (result.kind === 'confirm') return; // unreachable: mutations are routed above
    this.print(result.kind, result.text);
    if (result.kind === 'answer') this.note({ kind: 'answer', text: result.text });
    if (result.kind === 'said') this.note({ kind: 'said', text });
    if (result.kind === 'refused') this.note({ kind: 'refused', code: result.code, via: 'line', deskEntries: this.countsSince(before) });
  }

  confirm(): void {
    this.dialogBefore = this.deskEntryCount();
    this.confirmation.send({ type: 'CONFIRM' });
  }

  cancel(): void {
    this.confirmation.send({ type: 'CANCEL' });
  }

  async meanwhileReserve(id: string, packets: number): Promise<void> {
    const { result } = await this.call({ type: 'meanwhileReserve', id, packets });
    this.note({ kind: 'meanwhile', what: 'reserve' });
    if (result.kind === 'committed') this.note({ kind: 'committed', change: { kind: 'reservation', action: 'reserve', id, packets }, via: 'meanwhile' });
    this.print(result.kind === 'committed' ? 'committed' : result.kind, `Meanwhile, another action: ${result.message}`);
  }

  /** The leaf to its parent: a session-tree move while a dialog waits (`meanwhile`), or a plain navigation. */
  async stepBack(why = 'Meanwhile, the session tree moved the leaf to the previous entry.', as: 'meanwhile' | 'navigated' = 'meanwhile'): Promise<void> {
    await this.call({ type: 'stepBack' });
    if (as === 'meanwhile') this.note({ kind: 'meanwhile', what: 'step-back' });
    else this.note({ kind: 'navigated', entryId: this.view?.leafId ?? null });
    this.print('info', why);
  }


  async reopen(): Promise<void> {
    const from = this.view?.leafId ?? null;
    const behind = this.view?.leafBehind ?? null;
    await this.call({ type: 'reopen' });
    this.note({ kind: 'reopened', from, to: this.view?.leafId ?? null, behind });
  }

  async setInteractive(interactive: boolean): Promise<void> {
    await this.call({ type: 'setInteractive', interactive });
    this.note({ kind: 'interactive', value: interactive });
  }

  async failNextWrite(fault: 'abort' | 'quota' | 'close'): Promise<void> {
    await this.call({ type: 'injectFault', fault });
    const how = { abort: 'aborted', quota: 'quota exceeded', close: 'the database closed underneath it' }[fault];
    this.print('info', `The next storage transaction will fail (${how}).`);
  }

  async refreshJournal(): Promise<void> {
    const filter = this.journalFilter;
    const { result, view } = await this.call({ type: 'journal', filter });
    this.journal = result;
    this.journalReadFor = `${viewKeyOf(view)}|${filter}`;
  }

  /** False while the journal panel still shows an older view than the desk (announced as aria-busy). */
  get journalIsCurrent(): boolean {
    return this.view !== null && this.journalReadFor === `${viewKeyOf(this.view)}|${this.journalFilter}`;
  }

  async setJournalFilter(filter: string): Promise<void> {
    this.journalFilter = filter;
    await this.refreshJournal();
  }

  async refreshTree(): Promise<void> {
    const start = performance.now();
    const { result } = await this.call({ type: 'tree', filter: this.treeFilter });
    this.tree = result;
    // Measured up to the frame after the rows are in the DOM; the benchmark reads it.
    await tick();
    requestAnimationFrame(() => performance.measure(TREE_RENDER_MEASURE, { start, end: performance.now(), detail: result.rows.length }));
  }

  /** Every row of the tree, whatever filter the learner chose: for the tutorial's runner. */
  async allTreeRows(): Promise<TreeRowView[]> {
    const { result } = await this.call({ type: 'tree', filter: 'all' });
    return result.rows;
  }

  async setTreeFilter(filter: TreeFilter): Promise<void> {
    this.treeFilter = filter;
    await this.refreshTree();
  }

  async refreshSessions(): Promise<void> {
    const { result } = await this.call({ type: 'sessions' });
    this.sessions = result;
  }

  /** Host `/tree` selection: the leaf moves with the host's rules; the desk and status follow. */
  async branchFrom(entryId: string): Promise<void> {
    await this.call({ type: 'navigate', entryId });
    this.note({ kind: 'navigated', entryId });
  }

  async compare(otherId: string | null): Promise<void> {
    if (otherId !== this.compareWith) this.compareAttempt = null;
    this.compareWith = otherId;
    const { result } = await this.call({ type: 'compare', otherId });
    this.comparison = result;
  }

  async newSession(): Promise<void> {
    await this.call({ type: 'newSession' });
    this.note({ kind: 'new-session' });
  }

  async switchSession(sessionId: string): Promise<void> {
    await this.call({ type: 'switchSession', sessionId });
  }

  async forkSession(): Promise<void> {
    await this.call({ type: 'forkSession' });
    this.note({ kind: 'forked' });
  }

  async exportSession(): Promise<{ fileName: string; jsonl: string }> {
    const { result } = await this.call({ type: 'exportSession' });
    return result;
  }

  async importSession(file: Blob): Promise<ImportReport> {
    this.importReport = null;
    this.importProgress = { phase: 'reading', done: 0, total: file.size };
    try {
      const { result } = await this.call({ type: 'importSession', file }, (phase, done, total) => (this.importProgress = { phase, done, total }));
      this.importReport = result;
      return result;
    } finally {
      this.importProgress = null;
    }
  }

  /**
   * Journal, tree and sessions follow the view: refreshed only when the session, its size or
   * the leaf changed, and never two refreshes at once.
   */
  private viewKey = '';
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;
  private sessionsStale = false;

  private noteView(view: HostView, sessionsChanged = false): void {
    this.view = view;
    const key = viewKeyOf(view);
    const sessionChanged = !this.viewKey.startsWith(`${view.sessionId}|`);
    if (key === this.viewKey && !sessionsChanged) return;
    // The memo changes only when the key does: why the leaf is off the last entry follows from size and leaf.
    writeLeafMemo(view);
    this.viewKey = key;
    if (sessionChanged) this.comparison = null;
    this.scheduleRefresh(sessionChanged || sessionsChanged);
  }

  private scheduleRefresh(withSessions: boolean): void {
    this.sessionsStale ||= withSessions;
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        const sessions = this.sessionsStale;
        this.sessionsStale = false;
        await Promise.all([this.refreshJournal(), this.refreshTree(), sessions ? this.refreshSessions() : Promise.resolve()]).catch(() => undefined);
        if (this.comparison && this.compareWith !== null) await this.compare(this.compareWith).catch(() => (this.comparison = null));
      } while (this.refreshAgain);
      this.refreshing = null;
    })();
  }

  dialogIsBusy(): boolean {
    const state = this.dialog?.value;
    return state === 'reading' || state === 'open' || state === 'committing';
  }

  private reportDialog(snapshot: SnapshotFrom<typeof confirmationMachine>): void {
    const { result } = snapshot.context;
    const change = snapshot.context.change;
    switch (snapshot.value) {
      case 'open':
        if (change) this.note({ kind: 'dialog-opened', change });
        break;
      case 'committed':
        this.note({ kind: 'committed', change, via: 'dialog' });
        this.print('committed', result);
        break;
      case 'refused':
        if (snapshot.context.code) {
          this.note({ kind: 'refused', code: snapshot.context.code, via: snapshot.context.change ? 'dialog' : 'line', deskEntries: this.countsSince(this.dialogBefore) });
        }
        this.print('refused', result);
        break;
      case 'cancelled':
        if (change) this.note({ kind: 'cancelled', change });
        this.print('cancelled', result);
        break;
      case 'answered':
      case 'failed':
        if (snapshot.value === 'failed') this.note({ kind: 'storage-failed', text: result });
        this.print(snapshot.value === 'failed' ? 'failed' : 'answer', result);
        break;
    }
  }

  closingAnswer = $state<'yes' | 'no' | null>(null);

  /**
   * Opens a shared scenario: imported as a session of its own, or switched to when this browser
   * already holds that session (the learner opened their own link).
   */
  async openShared(jsonl: string): Promise<{ report: ImportReport; opened: boolean }> {
    const report = await this.importSession(new Blob([jsonl], { type: 'application/jsonl' }));
    if (report.ok) return { report, opened: true };
    if (report.existingSessionId === undefined) return { report, opened: false };
    await this.switchSession(report.existingSessionId);
    return { report, opened: true };
  }
  compareAttempt = $state<string | null>(null);

  /** An act on THIS branch carrying the compared branch's revision: it must be refused. */
  async tryOtherRevision(): Promise<void> {
    const view = this.view;
    const comparison = this.comparison;
    if (!comparison || !view) return;
    const revision = comparison.right.revision;
    if (view.agentEnabled) {
      const before = this.deskEntryCount();
      const outcome = await this.callTool(JSON.stringify({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision }), false);
      this.compareAttempt = outcome.kind === 'result' || outcome.kind === 'failed' ? outcome.text : 'Waiting for host approval…';
      if (outcome.kind === 'result' && outcome.details?.code) this.note({ kind: 'refused', code: outcome.details.code, via: 'compare', deskEntries: this.countsSince(before) });
    } else {
      const outcome = await this.probeCommit({ kind: 'reservation', action: 'reserve', id: 'bean-scarlet', packets: 1 }, revision, 'compare');
      this.compareAttempt = outcome.message;
    }
  }

  answerClosingQuestion(value: 'yes' | 'no'): void {
    this.closingAnswer = value;
    this.note({ kind: 'closing-answer', value });
  }

  /**
   * "Another tab" for the closing question, when the learner does not open one: a second worker
   * is exactly what a second tab runs. It stands where a tab opened before the learner's last
   * reservation would stand (on that entry's parent) and reserves all 3 marigolds there, as
   * confirmed in its own dialog. Its append reaches this tab like any other tab's.
   */
  async runTwinTab(): Promise<CommitOutcomeView> {
    const twin = new WorkerClient(new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module' }));
    try {
      const { view } = await twin.request({ type: 'hello' });
      // The branch runs root to leaf, so the item before the last reservation is its parent.
      const lastDeskIndex = view.branch.map((item) => item.role).lastIndexOf('seed-desk');
      const parent = lastDeskIndex > 0 ? view.branch[lastDeskIndex - 1] : undefined;
      const { view: placed } = parent ? await twin.request({ type: 'navigate', entryId: parent.id }) : { view };
      const change = { kind: 'reservation', action: 'reserve', id: 'marigold-french', packets: 3 } as const;
      const { result } = await twin.request({ type: 'commit', change, expectedRevision: placed.revision });
      if (result.kind === 'committed') this.note({ kind: 'committed', change, via: 'twin' });
      this.print(result.kind === 'committed' ? 'info' : result.kind, `The other tab: ${result.message}`);
      return result;
    } finally {
      twin.terminate();
    }
  }

  note(fact: Fact): void {
    this.facts = [...this.facts.slice(-499), { ...fact, seq: ++this.factSeq } as StampedFact];
  }

  /** The sequence number the next fact will get: a step's window starts here. */
  get nextFactSeq(): number {
    return this.factSeq + 1;
  }

  private print(kind: OutputLine['kind'], text: string): void {
    this.output = [...this.output.slice(-199), { seq: ++this.seq, kind, text }];
  }

  private async call<T extends RequestType>(
    body: Extract<RequestBody, { type: T }>,
    onProgress?: (phase: string, done: number, total: number) => void,
  ): Promise<Answer<T>> {
    const start = performance.now();
    try {
      const answer = await this.client.request(body, onProgress);
      // User Timing: free to record, and lets the benchmark read real round trips from the page.
      performance.measure(ROUND_TRIP_MEASURE, { start, end: performance.now(), detail: body.type });
      this.noteView(answer.view);
      this.error = null;
      return answer;
    } catch (error) {
      if (error instanceof WorkerError && error.view) this.noteView(error.view);
      this.error = error instanceof Error ? error.message : String(error);
      throw error;
    }
  }
}

/**
 * The leaf lives in memory, as in the host: a reload (like a reopen) starts on the last appended
 * entry. This memo never restores a leaf; it only lets the page say, after a reload, why the leaf
 * moved: a navigation that appended nothing, or another tab's append.
 */
const LEAF_MEMO_KEY = 'seed-desk:leaf-memo';

interface LeafMemo {
  sessionId: string;
  leafId: string | null;
  /** Why the leaf was off the last appended entry (null: it was on it), so the notice names the real reason. */
  behind: LeafBehind | null;
}

function readLeafMemo(): LeafMemo | null {
  try {
    const raw = sessionStorage.getItem(LEAF_MEMO_KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const memo = value as Record<string, unknown>;
    if (typeof memo['sessionId'] !== 'string') return null;
    const leafId = memo['leafId'];
    const behind = LeafBehindSchema.safeParse(memo['behind']);
    return { sessionId: memo['sessionId'], leafId: typeof leafId === 'string' ? leafId : null, behind: behind.success ? behind.data : null };
  } catch {
    return null;
  }
}

function writeLeafMemo(view: HostView): void {
  try {
    const memo: LeafMemo = { sessionId: view.sessionId, leafId: view.leafId, behind: view.leafBehind };
    sessionStorage.setItem(LEAF_MEMO_KEY, JSON.stringify(memo));
  } catch {
    // Storage may be unavailable (private mode); the notice is a courtesy, not state.
  }
}

/** What the journal, tree and sessions depend on: the session, its size and the leaf. */
function viewKeyOf(view: HostView): string {
  return `${view.sessionId}|${view.entryCount}|${view.leafId ?? ''}`;
}
