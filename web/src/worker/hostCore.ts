import { freshEntryId, type EntryId, type IdSource, type SessionId } from '$domain/ids';
import { customEntry, type JournalEntry } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import type { EditedVersion, ExtensionKind, LeafBehind, RunEnd } from '../protocol/messages';
import { DEFAULT_APPROVAL_MODE, type ApprovalMode } from '../../../extension/ompApi';
import type { ApprovalResolution } from './approval';
import { EventLog } from './eventLog';
import { AgentFacts } from './omp/agentFacts';
import type { CustomMessageFields } from './omp/customMessage';
import { PageUi } from './omp/pageUi';
import type { ExtensionRuntime, HostServices, Invocation, Notice } from './omp/extensionRuntime';
import type { SessionControls } from './omp/runContext';
import type { NotifyLevel } from '../../../extension/ompApi';
import type { JournalStore, SessionHead } from './store';
import type { ApprovalPolicy } from './toolGate';

/** The session events the host fires, with the payloads OMP 18.2.3 gives them (measured in host-test). */
export type SessionEvent =
  | { readonly event: 'session_start' }
  | { readonly event: 'session_switch'; readonly reason: 'new' | 'resume' | 'fork' }
  | { readonly event: 'session_branch'; readonly previousSessionFile: undefined }
  | { readonly event: 'session_tree'; readonly newLeafId: EntryId | null; readonly oldLeafId: EntryId | null };

/** How a run's leg (`from`: the notices it started at) is told to the page: a command's outcome, a session change's. */
export type RunReport = (run: Invocation, from: number) => RunEnd;

/** A run stopped at `ctx.ui.*`, kept until the page answers: the answer resumes it, and `report` tells how it ended (a command's outcome, a session change's). */
export interface WaitingRun {
  readonly run: Invocation;
  readonly report: RunReport;
}

/** A tool call waiting on the host's approval prompt. */
export interface PendingApproval {
  readonly callId: string;
  readonly toolName: string;
  readonly args: unknown;
  readonly prompt: string;
  readonly approval: ApprovalResolution;
}

/**
 * What every part of the worker's host shares: the open journal (memory mirror of the store), the
 * loaded extension, the in-memory leaf's history, the UI switch, the approval settings, the
 * storage latch, the status line, the open dialogs and the event log. Every append passes through
 * `appendNow` (synchronous, as the host's appends are) and reaches the store behind it;
 * `settleWrites` is where a request waits for the store before it answers.
 */
export class HostCore implements HostServices {
  interactive = true;
  /** The user's `tools.approval.<tool>`: unset by default, as in the host. */
  approvalPolicy: ApprovalPolicy | null = null;
  approvalMode: ApprovalMode = DEFAULT_APPROVAL_MODE;
  pendingApproval: PendingApproval | null = null;
  /** Set after a failed write; cleared only by a reopen (the host latches storage failures). */
  writeFailure: string | null = null;
  notice: string | null = null;
  readonly events = new EventLog();
  /** `ctx.ui.setStatus` keys and texts, in the order they were first set. */
  readonly statuses = new Map<string, string>();
  /** `ctx.ui.setWidget` and the Command box's text (`setEditorText`, `pasteToEditor`). */
  readonly pageUi = new PageUi();
  /** Extension runs waiting on a UI request the page shows, by request id, with the command that started each. */
  readonly waiting = new Map<string, WaitingRun>();
  /** The loaded extension; set by `PlaygroundHost.start`, replaced by the learner's edited one and back (edit/editing.ts). */
  extensions!: ExtensionRuntime;
  /** The agent side as far as the worker knows it: the run going on, the model and system prompt last used. */
  readonly agent = new AgentFacts();
  /** Whether `extensions` is the shipped module or the learner's edited version. */
  extensionKind: ExtensionKind = 'shipped';
  /** While the edited one runs: what its text is and what it was changed from (edit/editedVersion.ts). */
  editedVersion: EditedVersion | null = null;
  /** A stored edited version is active and waits for the page to run it again (after a reload). */
  editedWaiting = false;
  /** The learner's own extension (issue 37) runs instead of Seed Desk (then `extensionKind` names the Seed Desk it replaced). */
  own = false;
  /** The learner's own extension (issue 37) is active and waits for the page to run it again (after a reload). */
  ownWaiting = false;
  /**
   * How a reopen starts the running extension afresh, as a new OMP process imports it again: set
   * while the learner's own extension runs (its module evaluated anew, so state kept in a variable
   * is gone, as it is in OMP), null for Seed Desk (which keeps nothing outside the journal).
   */
  restartExtension: (() => Promise<void>) | null = null;
  /**
   * Set while the session opens: its stored head (desk, revision, counts), so the first view is
   * answered before the whole journal is read; `journal` is an empty stand-in until then.
   */
  opening: SessionHead | null = null;
  /** Bumped whenever the list of sessions may have changed (here or in another tab). */
  sessionsVersion = 0;
  /** True while the leaf sits where this tab's own navigation put it, with nothing appended since. */
  private leafNavigated = false;
  /** Entries other tabs appended to this journal (to name the real reason a reopen moves the leaf). */
  private foreignIds = new Set<EntryId>();
  /** Appended in memory, not yet known to be stored; `stored` is filled as the store confirms. */
  private unsaved: JournalEntry[] = [];
  private readonly stored = new Set<EntryId>();
  private writing: Promise<void> = Promise.resolve();
  /** Appends whose write has not started yet: later appends on the same chain join it. */
  private queued: { readonly sessionId: SessionId; readonly entries: JournalEntry[] } | null = null;
  private writeError: unknown = null;
  /** The event log's end and the statuses before the first unsaved append: what a failed write goes back to. */
  private beforeUnsaved: { readonly eventSeq: number; readonly statuses: ReadonlyMap<string, string> } | null = null;
  /** Told about every stored append this tab made, so other tabs can be told (BroadcastChannel). */
  onAppended: ((sessionId: SessionId, entries: readonly JournalEntry[]) => void) | null = null;
  /** Told when the list of sessions changed here (created, imported, forked). */
  onSessionsChanged: (() => void) | null = null;
  /** A command's session controls (commandSessions.ts, set by PlaygroundHost). */
  sessionControls: ((run: Invocation) => SessionControls) | null = null;

  constructor(
    readonly store: JournalStore,
    readonly ids: IdSource,
    public journal: SessionJournal,
  ) {}

  get sessionId(): SessionId {
    return this.journal.sessionId;
  }

  /** Where the next entry goes: a fresh id under the leaf, stamped now. */
  place(): { id: EntryId; parentId: EntryId | null; timestamp: string } {
    return { id: freshEntryId(this.ids, (id) => this.journal.has(id)), parentId: this.journal.leafId, timestamp: this.ids.now() };
  }

  // ── HostServices: what the extension runtime asks of the host ──

  currentJournal(): SessionJournal {
    return this.journal;
  }

  appendCustom(customType: string, data: unknown): void {
    this.appendNow(customEntry(customType, data, this.place()));
  }

  appendCustomMessage(message: CustomMessageFields): void {
    this.appendNow({ type: 'custom_message', ...message, ...this.place() });
  }

  hasUI(): boolean {
    return this.interactive;
  }

  setStatus(key: string, text: string | undefined): void {
    if (text === undefined) this.statuses.delete(key);
    else this.statuses.set(key, text);
  }

  notified(notice: Notice): void {
    this.notify(notice.level, notice.text);
  }

  emitted(channel: string, data: unknown): void {
    this.events.add({ kind: 'event', channel, payload: safeJson(data) });
  }

  // ── appends ──

  /**
   * The host's append: in memory now (the next `getBranch()` sees it), in the store right behind,
   * one record per entry, in order. A latched failure refuses it before anything changes.
   */
  appendNow(entry: JournalEntry): void {
    if (this.writeFailure !== null) throw new Error(this.blockedText());
    if (this.unsaved.length === 0) this.beforeUnsaved = { eventSeq: this.events.lastSeq, statuses: new Map(this.statuses) };
    this.journal.append(entry);
    this.leafNavigated = false;
    this.notice = null;
    this.unsaved.push(entry);
    const sessionId = this.sessionId;
    // An append that continues the chain still waiting for its write joins that write (one
    // transaction, one record per entry): a run's many appends cost one write, not one each (issue 28).
    const queued = this.queued;
    if (queued && queued.sessionId === sessionId && queued.entries.at(-1)?.id === entry.parentId) {
      queued.entries.push(entry);
      return;
    }
    const batch = { sessionId, entries: [entry] };
    this.queued = batch;
    this.writing = this.writing.then(async () => {
      if (this.queued === batch) this.queued = null;
      if (this.writeError !== null) return;
      try {
        await this.store.append(sessionId, entry.parentId, batch.entries);
        for (const written of batch.entries) this.stored.add(written.id);
      } catch (error) {
        this.writeError = error;
      }
    });
  }

  /**
   * Waits until the store holds every append so far. After a failure, memory forgets what the
   * store did not keep (so the page never shows an entry that is not stored), and writes latch.
   * Null when all is stored; else the failure's text.
   */
  async settleWrites(): Promise<string | null> {
    await this.writing;
    const entries = this.unsaved;
    const before = this.beforeUnsaved;
    this.unsaved = [];
    this.beforeUnsaved = null;
    const kept = entries.filter((entry) => this.stored.has(entry.id));
    this.stored.clear();
    if (kept.length > 0) this.onAppended?.(this.sessionId, kept);
    if (this.writeError === null) return null;
    const error = this.writeError;
    this.writeError = null;
    const lost = new Set(entries.filter((entry) => !kept.includes(entry)).map((entry) => entry.id));
    const firstLost = entries.find((entry) => lost.has(entry.id));
    const journal = SessionJournal.fromEntries(this.journal.header, this.journal.entries().filter((entry) => !lost.has(entry.id)));
    journal.moveLeaf(firstLost?.parentId ?? journal.leafId);
    this.journal = journal;
    // The extension announced a change the store did not keep (appendEntry returns no receipt):
    // its events go, and the status line is what it was over the stored entries.
    if (before) {
      this.events.dropEventsAfter(before.eventSeq);
      this.statuses.clear();
      for (const [key, text] of before.statuses) this.statuses.set(key, text);
    }
    return this.latch(error);
  }

  /** Switches to another journal (new, switched to, forked, imported, reopened): the leaf's history starts over. */
  useJournal(journal: SessionJournal, notice: string | null, event: SessionEvent): void {
    this.journal = journal;
    this.leafNavigated = false;
    this.foreignIds = new Set();
    this.writeFailure = null;
    this.notice = notice;
    if (notice !== null) this.notify('info', notice);
    void this.store.setLastSession(journal.sessionId);
    this.fire(event);
  }

  /** A session event to the extension, with the host's payload; what its handlers notify lands in the event log. */
  fire(event: SessionEvent): void {
    const { event: name, ...payload } = event;
    // A handler that throws is the extension's error, shown as the host shows one; the others still run.
    for (const error of this.extensions.fire(name, { type: name, ...payload })) this.notify('error', error);
  }

  /** Entries another tab appended: they join the tree; this tab's leaf stays where it is. */
  adoptForeign(sessionId: string, entries: readonly JournalEntry[]): boolean {
    if (sessionId !== this.sessionId) return false;
    let changed = false;
    for (const entry of entries) {
      if (!this.journal.adopt(entry)) continue;
      this.foreignIds.add(entry.id);
      changed = true;
    }
    return changed;
  }

  refuseWhileApprovalWaits(what: string): void {
    if (this.pendingApproval) throw new Error(`A ${this.pendingApproval.toolName} call is waiting for host approval: approve or deny it before you ${what}.`);
  }

  writeFailureText(): string {
    return `Storage failed, nothing was appended: ${this.writeFailure ?? 'unknown error'} Writes are stopped until you reopen the session.`;
  }

  blockedText(): string {
    return `Writes are stopped after a storage failure (${this.writeFailure ?? 'unknown error'}). Reopen the session to continue; queries still work.`;
  }

  latch(error: unknown): string {
    this.writeFailure = error instanceof Error ? error.message : String(error);
    const text = this.writeFailureText();
    this.notify('error', text);
    return text;
  }

  notify(level: NotifyLevel, text: string): void {
    this.events.add({ kind: 'notification', level, text });
  }

  /** Null when a reopen would keep the leaf where it is; else what moved it off the last appended entry. */
  leafBehind(): LeafBehind | null {
    if (!this.journal.leafIsTransient()) return null;
    const last = this.journal.lastAppendedId();
    return { navigated: this.leafNavigated, foreignEntryId: last !== null && this.foreignIds.has(last) ? last : null };
  }

  /** Called after every move of the leaf that appended nothing: the extension hears `session_tree`. */
  noteLeafMove(oldLeafId: EntryId | null): void {
    this.leafNavigated = this.journal.leafIsTransient();
    if (oldLeafId !== this.journal.leafId) this.fire({ event: 'session_tree', newLeafId: this.journal.leafId, oldLeafId });
  }
}

/** Event data may be anything an extension emits: describing it must not throw. */
function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return `(data that cannot be shown as JSON: ${typeof value})`;
  }
}
