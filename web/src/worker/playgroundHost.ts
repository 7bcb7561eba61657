import type { EntryId, IdSource, SessionId } from '$domain/ids';
import type { JournalEntry } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import seedDesk from '../../../extension/seed-desk';
import type { BranchItem, EditedFrom, EditRun, EntryTarget, EventLogItem, HostView, ImportReport, LineOutcome, ModelCallRef, ModelMessage, ModelRecord, ModelTool, SessionSummary, ToolCallOutcome, UiAnswer } from '../protocol/messages';
import type { ApprovalMode } from './approval';
import * as commands from './commands';
import { EDITED_KEY } from './edit/editedKey';
import { OWN_KEY, storedActive } from './edit/ownKey';
import { HostCore } from './hostCore';
import { ExtensionRuntime, type ExtensionFactory } from './omp/extensionRuntime';
import * as navigation from './navigation';
import { branchItems, hostView } from './projections';
import { createSession, loadJournal, openSessionHead } from './sessionLoad';
import * as sessions from './sessions';
import { changeSession } from './sessionChanges';
import { commandSessions } from './commandSessions';
import type { JournalStore, StoreFault } from './store';
import type { ApprovalPolicy } from './toolGate';

/**
 * The simulated host with the seed desk extension loaded: one object the worker (through the
 * request table at the end of this file, `HANDLERS`) and the tests talk to. It holds no logic of its own; each idea lives in its own module —
 * `commands` (the command line), `commits` (human changes after their dialog), `toolCalls`
 * (seed_desk through the host's gates), `navigation` (leaf moves), `sessions` (new, switch, fork,
 * import, export, reopen), `projections` (what the page is shown) — over the shared `HostCore`.
 * Calls must not interleave: the worker runs them one at a time.
 */
export class PlaygroundHost {
  private opened: Promise<void> | null = null;

  private constructor(
    readonly core: HostCore,
    /** The extension `start` loaded, which "Back to the shipped extension" loads again. */
    readonly shipped: ExtensionFactory,
  ) {}

  /**
   * Opens the last session. `fromHead` (the worker): from its stored head only — the desk, the
   * revision and the counts cost the same for 5k entries as for 50k — and `finishOpening` reads
   * the whole journal after the first view is out. A browser without a session starts a new one.
   */
  static async start(store: JournalStore, ids: IdSource, { fromHead = false, extension = seedDesk as ExtensionFactory } = {}): Promise<PlaygroundHost> {
    const [last, edited, own] = await Promise.all([store.lastSessionId(), store.getMeta(EDITED_KEY), store.getMeta(OWN_KEY)]);
    const head = last ? await openSessionHead(store, last) : null;
    const core = new HostCore(store, ids, head ? SessionJournal.empty(head.header) : await createSession(store, ids));
    core.sessionControls = (run) => commandSessions(core, run);
    core.extensions = await ExtensionRuntime.load(extension, core);
    // An edited version that was running before the reload: the page runs it again after the first view.
    // The learner's own extension (issue 37) was running instead: the page runs it again on its session.
    core.ownWaiting = storedActive(own);
    core.editedWaiting = !core.ownWaiting && storedActive(edited);
    const host = new PlaygroundHost(core, extension);
    if (!head) {
      await store.setLastSession(core.sessionId);
      core.fire({ event: 'session_start' });
      return host;
    }
    core.opening = head;
    if (!fromHead) await host.finishOpening();
    return host;
  }

  /** Reads the whole journal of the session being opened; at once when there is none to read. Safe to call again. */
  finishOpening(): Promise<void> {
    const head = this.core.opening;
    if (!head) return Promise.resolve();
    this.opened ??= (async () => {
      const core = this.core;
      const journal = (await loadJournal(core.store, head.header.id)) ?? (await createSession(core.store, core.ids));
      core.journal = journal;
      core.opening = null;
      if (journal.sessionId !== head.header.id) await core.store.setLastSession(journal.sessionId);
      core.fire({ event: 'session_start' });
    })();
    return this.opened;
  }

  get sessionId(): SessionId {
    return this.core.sessionId;
  }

  set onAppended(listener: ((sessionId: SessionId, entries: readonly JournalEntry[]) => void) | null) {
    this.core.onAppended = listener;
  }

  set onSessionsChanged(listener: (() => void) | null) {
    this.core.onSessionsChanged = listener;
  }

  /** Read-only use (layouts, comparisons, tests); every change still goes through the host's methods. */
  currentJournal(): SessionJournal {
    return this.core.journal;
  }

  view(): HostView {
    return hostView(this.core);
  }

  /** The conversation as the page shows it (the last entries of the active branch). */
  branch(): BranchItem[] {
    return branchItems(this.core.journal);
  }

  events(): EventLogItem[] {
    return this.core.events.all();
  }

  runLine(line: string, headless = false): Promise<LineOutcome> {
    return commands.reported(this.core, () => commands.runLine(this.core, line, headless));
  }

  /** The page's answer to what the extension asked (`confirm`, `select`, `input`), under the request's id. */
  answerUi(answer: UiAnswer): Promise<LineOutcome> {
    return commands.reported(this.core, () => commands.answerUi(this.core, answer));
  }

  // The lesson's staged events load when first used: the worker's first chunk has a budget (40 KiB gzip).
  meanwhileReserve(id: string, packets: number): Promise<LineOutcome> {
    return commands.reported(this.core, async () => (await import('./demos')).meanwhileReserve(this.core, id, packets));
  }

  appendCorruptSnapshot(then?: 'valid'): Promise<LineOutcome> {
    return commands.reported(this.core, async () => (await import('./demos')).appendCorruptSnapshot(this.core, then));
  }

  setApprovalPolicy(policy: ApprovalPolicy | null): void {
    this.core.approvalPolicy = policy;
  }

  setApprovalMode(mode: ApprovalMode): void {
    this.core.approvalMode = mode;
  }

  setInteractive(interactive: boolean): void {
    this.core.interactive = interactive;
  }

  injectFault(fault: StoreFault | null): void {
    this.core.store.injectFault(fault);
  }

  // The tool call's gates (the argument check, approval) load at the first call: the worker's first chunk has a budget (40 KiB gzip).
  async callTool(argsText: string, skipSchema: boolean, call?: ModelCallRef): Promise<ToolCallOutcome> {
    return (await import('./toolCalls')).callTool(this.core, argsText, skipSchema, call);
  }

  /** A real model's message (the learner's request, or an assistant message with its tool calls), loaded at the first one. */
  async recordModelMessage(message: ModelMessage): Promise<ModelRecord> {
    return (await import('./modelTurn')).recordModelMessage(this.core, message);
  }

  async modelTools(): Promise<ModelTool[]> {
    return (await import('./modelTurn')).offeredTools(this.core);
  }

  async answerApproval(callId: string, approved: boolean): Promise<ToolCallOutcome> {
    return (await import('./toolCalls')).answerApproval(this.core, callId, approved);
  }

  /**
   * Host `/tree` selection; `entryId` or a target the worker finds. Made at once (null) when no
   * extension listens to `session_before_tree`; else its handlers are asked first (sessionChanges.ts).
   */
  navigate(target: EntryId | EntryTarget): null | Promise<LineOutcome | null> {
    const to: EntryTarget = typeof target === 'string' ? { by: 'id', id: target } : target;
    if (this.core.extensions.handlersOf('session_before_tree').length > 0) return changeSession(this.core, (run) => navigation.navigate(this.core, to, run));
    navigation.navigate(this.core, to);
    return null;
  }

  stepBack(): void {
    navigation.stepBack(this.core);
  }

  moveLeaf(entryId: EntryId | null): void {
    navigation.moveLeaf(this.core, entryId);
  }

  reopen(): Promise<void> {
    return sessions.reopen(this.core);
  }

  storageLost(reason: string): void {
    sessions.storageLost(this.core, reason);
  }

  listSessions(): Promise<SessionSummary[]> {
    return sessions.listSessions(this.core);
  }

  // A session change resolves to null once made; to an outcome when an extension's before-event took part (sessionChanges.ts).
  newSession(fresh = false): Promise<LineOutcome | null> {
    return changeSession(this.core, (run) => sessions.newSession(this.core, fresh, run));
  }

  switchSession(sessionId: SessionId): Promise<LineOutcome | null> {
    return changeSession(this.core, (run) => sessions.switchSession(this.core, sessionId, run));
  }

  forkSession(entryId?: EntryId | null): Promise<LineOutcome | null> {
    const from = entryId === undefined ? this.core.journal.leafId : entryId;
    return changeSession(this.core, (run) => sessions.forkSession(this.core, from, run));
  }

  exportSession(): { fileName: string; jsonl: string } {
    return sessions.exportSession(this.core);
  }

  importSession(file: Blob, onProgress: (phase: string, done: number, total: number) => void): Promise<ImportReport> {
    return sessions.importSession(this.core, file, onProgress);
  }

  /** The learner's files compiled and run in place of the running extension (edit/editing.ts, loaded then). */
  async runEdited(files: Readonly<Record<string, string>>, progress: (phase: string, done: number, total: number) => void, from?: EditedFrom): Promise<EditRun> {
    return (await import('./edit/editing')).runEdited(this.core, files, progress, from);
  }

  async restoreEdited(progress: (phase: string, done: number, total: number) => void): Promise<EditRun> {
    return (await import('./edit/editing')).restoreEdited(this.core, progress);
  }

  async useShipped(): Promise<void> {
    return (await import('./edit/editing')).useShipped(this.core, this.shipped);
  }

  async storedEdits(): Promise<{ files: Record<string, string>; active: boolean } | null> {
    return (await import('./edit/editing')).storedEdits(this.core);
  }

  async downloadEdited(files: Readonly<Record<string, string>>) {
    return (await import('./edit/editing')).downloadEdited(files);
  }

  /** Entries another tab appended: they join the tree; this tab's leaf stays where it is. */
  adoptForeign(sessionId: string, entries: readonly JournalEntry[]): boolean {
    return this.core.adoptForeign(sessionId, entries);
  }

  /** Another tab changed the list of sessions. */
  noteSessionsChanged(): void {
    this.core.sessionsVersion++;
  }
}
