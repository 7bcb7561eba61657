import { tick } from 'svelte';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { parseSeedsArgs, splitSlashCommand } from '$domain/command/parse';
import { approvalMachine } from '../machines/approval';
import { confirmationMachine } from '../machines/confirmation';
import type {
  CommitOutcomeView,
  ComparisonView,
  DeskChange,
  HostView,
  ImportReport,
  LineOutcome,
  RequestBody,
  RequestType,
  SessionSummary,
  ToolCallOutcome,
  TreeFilter,
  TreeRowView,
} from '../protocol/messages';
import { WorkerClient, WorkerError, type Answer } from './workerClient';

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
  tree = $state.raw<{ rows: TreeRowView[]; leafId: string | null }>({ rows: [], leafId: null });
  treeFilter = $state<TreeFilter>('all');
  sessions = $state.raw<SessionSummary[]>([]);
  comparison = $state.raw<ComparisonView | null>(null);
  compareWith = $state.raw<string | null>(null);
  importProgress = $state.raw<{ phase: string; done: number; total: number } | null>(null);
  importReport = $state.raw<ImportReport | null>(null);
  /** Set when the worker itself failed (not a refusal): shown as an alert. */
  error = $state.raw<string | null>(null);
  busy = $state(0);
  /** Said once after a reload that undid a navigation which had appended nothing. */
  reloadNotice = $state.raw<string | null>(null);

  /** The last seed_desk outcome, shown as text and details. */
  toolOutcome = $state.raw<ToolCallOutcome | null>(null);
  /** The revision from the latest tool result: "use latest revision" fills it in; nothing refreshes it silently. */
  latestToolRevision = $state.raw<string | null>(null);
  approval = $state.raw<SnapshotFrom<typeof approvalMachine>>();

  private seq = 0;
  private readonly client: WorkerClient;
  readonly confirmation;
  readonly approvalActor;

  constructor(worker: Worker) {
    this.client = new WorkerClient(worker);
    this.client.onPush = (view, sessionsChanged) => this.noteView(view, sessionsChanged);
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
    const { result } = await this.call({ type: 'toolCall', args, skipSchema });
    if (result.kind === 'approval') {
      this.toolOutcome = result;
      this.approvalActor.send({ type: 'ASK', callId: result.callId, prompt: result.prompt });
      return result;
    }
    this.showToolOutcome(result);
    return result;
  }

  /** Resolves when the approval prompt has been answered and the call has finished. */
  async answerApproval(approved: boolean): Promise<void> {
    this.approvalActor.send({ type: approved ? 'APPROVE' : 'DENY' });
  }

  /** A line straight to the host, bypassing the dialog: used by demos that expect a refusal before any dialog. */
  async probeLine(text: string, headless = false): Promise<LineOutcome> {
    const { result } = await this.call({ type: 'line', text, headless });
    return result;
  }

  /** A human commit with a chosen expected revision, as a dialog would send it after Confirm. */
  async probeCommit(change: DeskChange, expectedRevision: string): Promise<CommitOutcomeView> {
    const { result } = await this.call({ type: 'commit', change, expectedRevision });
    return result;
  }

  async setApprovalPolicy(policy: 'allow' | 'prompt' | 'deny'): Promise<void> {
    await this.call({ type: 'setApprovalPolicy', policy });
  }

  async corruptDemo(): Promise<void> {
    const { result } = await this.call({ type: 'corruptDemo' });
    this.print(result.kind === 'committed' ? 'info' : result.kind, result.message);
  }

  private showToolOutcome(outcome: ToolCallOutcome): void {
    this.toolOutcome = outcome;
    if (outcome.kind === 'result' && outcome.details?.revision) this.latestToolRevision = outcome.details.revision;
  }

  async start(): Promise<void> {
    const before = readLeafMemo();
    const { view } = await this.call({ type: 'hello' });
    if (before && before.sessionId === view.sessionId && before.transient && before.leafId !== view.leafId) {
      this.reloadNotice = `The reload put the leaf back on the last appended entry (${view.leafId ?? 'none'}). Your move to ${before.leafId ?? 'the start'} appended nothing, so it did not survive.`;
    }
  }

  /** Runs what the learner typed in the command line. */
  async runLine(line: string): Promise<void> {
    const text = line.trim();
    if (text.length === 0) return;
    this.print('input', text);
    if (isHumanMutation(text)) {
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
  }

  confirm(): void {
    this.confirmation.send({ type: 'CONFIRM' });
  }

  cancel(): void {
    this.confirmation.send({ type: 'CANCEL' });
  }

  async meanwhileReserve(id: string, packets: number): Promise<void> {
    const { result } = await this.call({ type: 'meanwhileReserve', id, packets });
    this.print(result.kind === 'committed' ? 'committed' : result.kind, `Meanwhile, another action: ${result.message}`);
  }

  async stepBack(why = 'Meanwhile, the session tree moved the leaf to the previous entry.'): Promise<void> {
    await this.call({ type: 'stepBack' });
    this.print('info', why);
  }

  async navigate(entryId: string): Promise<void> {
    await this.call({ type: 'navigate', entryId });
  }

  async reopen(): Promise<void> {
    await this.call({ type: 'reopen' });
  }

  async setInteractive(interactive: boolean): Promise<void> {
    await this.call({ type: 'setInteractive', interactive });
  }

  async failNextWrite(fault: 'abort' | 'quota'): Promise<void> {
    await this.call({ type: 'injectFault', fault });
    this.print('info', `The next storage transaction will fail (${fault === 'abort' ? 'aborted' : 'quota exceeded'}).`);
  }

  async refreshJournal(): Promise<void> {
    const { result } = await this.call({ type: 'journal', filter: this.journalFilter });
    this.journal = result;
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
  }

  async compare(otherId: string | null): Promise<void> {
    this.compareWith = otherId;
    const { result } = await this.call({ type: 'compare', otherId });
    this.comparison = result;
  }

  async newSession(): Promise<void> {
    await this.call({ type: 'newSession' });
  }

  async switchSession(sessionId: string): Promise<void> {
    await this.call({ type: 'switchSession', sessionId });
  }

  async forkSession(): Promise<void> {
    await this.call({ type: 'forkSession' });
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

  private noteView(view: HostView, sessionsChanged = false): void {
    this.view = view;
    writeLeafMemo(view);
    const key = `${view.sessionId}|${view.entryCount}|${view.leafId ?? ''}`;
    const sessionChanged = !this.viewKey.startsWith(`${view.sessionId}|`);
    if (key === this.viewKey && !sessionsChanged) return;
    this.viewKey = key;
    if (sessionChanged) this.comparison = null;
    this.scheduleRefresh(sessionChanged || sessionsChanged);
  }

  private scheduleRefresh(withSessions: boolean): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        await Promise.all([this.refreshJournal(), this.refreshTree(), withSessions ? this.refreshSessions() : Promise.resolve()]).catch(() => undefined);
        if (this.comparison && this.compareWith !== null) await this.compare(this.compareWith).catch(() => (this.comparison = null));
      } while (this.refreshAgain);
    })().finally(() => (this.refreshing = null));
  }

  dialogIsBusy(): boolean {
    const state = this.dialog?.value;
    return state === 'reading' || state === 'open' || state === 'committing';
  }

  private reportDialog(snapshot: SnapshotFrom<typeof confirmationMachine>): void {
    const { result } = snapshot.context;
    switch (snapshot.value) {
      case 'committed':
        this.print('committed', result);
        break;
      case 'refused':
        this.print('refused', result);
        break;
      case 'cancelled':
        this.print('cancelled', result);
        break;
      case 'answered':
      case 'failed':
        this.print(snapshot.value === 'failed' ? 'failed' : 'answer', result);
        break;
    }
  }

  private print(kind: OutputLine['kind'], text: string): void {
    this.output = [...this.output.slice(-199), { seq: ++this.seq, kind, text }];
  }

  private async call<T extends RequestType>(
    body: Extract<RequestBody, { type: T }>,
    onProgress?: (phase: string, done: number, total: number) => void,
  ): Promise<Answer<T>> {
    this.busy++;
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
    } finally {
      this.busy--;
    }
  }
}

/**
 * The leaf lives in memory, as in the host; this memo only lets the page tell the learner, after
 * a reload, that a navigation which appended nothing was lost.
 */
const LEAF_MEMO_KEY = 'seed-desk:leaf-memo';

interface LeafMemo {
  sessionId: string;
  leafId: string | null;
  transient: boolean;
}

function readLeafMemo(): LeafMemo | null {
  try {
    const raw = sessionStorage.getItem(LEAF_MEMO_KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const memo = value as Record<string, unknown>;
    if (typeof memo['sessionId'] !== 'string' || typeof memo['transient'] !== 'boolean') return null;
    const leafId = memo['leafId'];
    return { sessionId: memo['sessionId'], leafId: typeof leafId === 'string' ? leafId : null, transient: memo['transient'] };
  } catch {
    return null;
  }
}

function writeLeafMemo(view: HostView): void {
  try {
    sessionStorage.setItem(LEAF_MEMO_KEY, JSON.stringify({ sessionId: view.sessionId, leafId: view.leafId, transient: view.transientLeaf }));
  } catch {
    // Storage may be unavailable (private mode); the notice is a courtesy, not state.
  }
}
