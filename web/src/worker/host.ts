import { parseSeedsArgs, splitSlashCommand, type SeedsCommand } from '$domain/command/parse';
import { corruptRefusal, decideHumanChange, decideReservation } from '$domain/desk';
import { changeTitle, familyQuery, queryText, statusText } from '$domain/deskText';
import { freshEntryId, type EntryId, type IdSource, type Revision, type SessionId } from '$domain/ids';
import { assistantMessageEntry, customEntry, entryText, entryTypeOf, isSeedDeskEntry, messageRole, sessionFileName, sessionHeader, toolResultEntry, userMessageEntry, type JournalEntry } from '$domain/journal/entry';
import { planSeedDeskCall, type ToolResult } from '$domain/tool/seedDeskTool';
import { SEED_DESK_TOOL_NAME } from '$domain/tool/schema';
import { toSessionJsonl } from '$domain/journal/exportJsonl';
import { parseSessionJsonl } from '$domain/journal/importJsonl';
import { compareBranches, type BranchComparison } from '$domain/journal/compare';
import { filterRows, flattenTree, type TreeFilter, type TreeRow } from '$domain/journal/treeLayout';
import { SessionJournal } from '$domain/journal/journal';
import type { BranchState } from '$domain/reconstruct';
import { refusalText, type Refusal } from '$domain/refusal';
import { deskRows, EMPTY_SNAPSHOT, SEED_DESK_CUSTOM_TYPE, type Snapshot } from '$domain/snapshot';
import { CHANGED_EVENT, type DeskChange, type EventLogItem, type HostView, type ImportReport, type LeafBehind, type LineOutcome, type CommitOutcomeView, type BranchItem, type SessionSummary, type ToolCallOutcome } from '../protocol/messages';
import { leafReturnNotice } from '../protocol/leafNotice';
import { DEFAULT_APPROVAL_MODE, type ApprovalMode, type ApprovalResolution } from './approval';
import { DENIED_BY_USER, gateToolCall, type ApprovalPolicy } from './toolGate';
import { JournalStore, StorageFailure, type StoreFault } from './store';

/** The event log the page shows (older events are dropped). */
const EVENT_LOG_LIMIT = 50;
const BRANCH_VIEW_LIMIT = 400;
const IMPORT_REPORT_LIMIT = 200;
const JOURNAL_LINES_LIMIT = 500;
const JOURNAL_LINE_LIMIT = 2000;
const BRANCH_TEXT_LIMIT = 400;
const ROW_TEXT_LIMIT = 200;

/**
 * The simulated host with the seed desk extension loaded. It owns the journal (memory mirror +
 * IndexedDB), the in-memory leaf, the UI switch and the storage latch; the page only renders
 * what `view()` reports. Calls must not interleave: the worker runs them one at a time.
 */
export class PlaygroundHost {
  private interactive = true;
  /** The user's `tools.approval.seed_desk`: unset by default, as in the host. */
  private approvalPolicy: ApprovalPolicy | null = null;
  private approvalMode: ApprovalMode = DEFAULT_APPROVAL_MODE;
  /** True while the leaf sits where this tab's own navigation put it, with nothing appended since. */
  private leafNavigated = false;
  /** Entries other tabs appended to this journal (to name the real reason a reopen moves the leaf). */
  private foreignIds = new Set<EntryId>();
  /** The persistence gate, scanned incrementally: has this journal an assistant message yet? */
  private assistantScan: { journal: SessionJournal | null; checked: number; found: boolean } = { journal: null, checked: 0, found: false };
  /** A tool call waiting on the host's approval prompt. */
  private pendingApproval: { callId: string; args: unknown; prompt: string; approval: ApprovalResolution } | null = null;
  /** Set after a failed write; cleared only by a reopen (the host latches storage failures). */
  private writeFailure: string | null = null;
  private notice: string | null = null;
  private readonly events: EventLogItem[] = [];
  private lineCache: { journal: SessionJournal | null; lines: string[] } = { journal: null, lines: [] };
  /** Told about every append this tab made, so other tabs can be told (BroadcastChannel). */
  onAppended: ((sessionId: SessionId, entries: readonly JournalEntry[]) => void) | null = null;
  /** Told when the list of sessions changed here (created, imported, forked). */
  onSessionsChanged: (() => void) | null = null;
  private eventSeq = 0;

  private constructor(
    private readonly store: JournalStore,
    private readonly ids: IdSource,
    private journal: SessionJournal,
  ) {}

  static async start(store: JournalStore, ids: IdSource): Promise<PlaygroundHost> {
    const last = await store.lastSessionId();
    const journal = (last && (await loadJournal(store, last))) || (await createSession(store, ids));
    if (journal.sessionId !== last) await store.setLastSession(journal.sessionId);
    return new PlaygroundHost(store, ids, journal);
  }

  get sessionId(): SessionId {
    return this.journal.sessionId;
  }

  /** Read-only use (tree layout, compare); every change still goes through the host's methods. */
  currentJournal(): SessionJournal {
    return this.journal;
  }

  view(): HostView {
    const journal = this.journal;
    const state = journal.state();
    const snapshot = state.ok ? state.snapshot : null;
    const rows = deskRows(snapshot ?? EMPTY_SNAPSHOT);
    return {
      sessionId: journal.sessionId,
      entryCount: journal.size,
      leafId: journal.leafId,
      revision: state.revision,
      corrupt: state.ok ? null : { entryId: state.corruptEntryId, problem: state.problem },
      rows,
      agentEnabled: snapshot?.agentEnabled ?? false,
      status: state.ok ? statusText(rows, state.snapshot.agentEnabled, state.revision) : `Seed desk: corrupt branch (entry ${state.corruptEntryId}); revision ${state.revision}`,
      interactive: this.interactive,
      writeFailure: this.writeFailure,
      notice: this.notice,
      transientLeaf: journal.leafIsTransient(),
      leafBehind: this.leafBehind(),
      approvalPolicy: this.approvalPolicy,
      approvalMode: this.approvalMode,
      hostFileWritten: this.hostFileWritten(),
      pendingApproval: this.pendingApproval ? { callId: this.pendingApproval.callId, prompt: this.pendingApproval.prompt } : null,
      seedDeskEntryCount: journal.seedDeskEntryCount,
      branch: this.branchItems(),
      events: this.events.slice(),
    };
  }

  // ---- the command line ----

  /** `headless` runs this one line as a host without UI would (the Refusals view's ui-required demo). */
  async runLine(line: string, headless = false): Promise<LineOutcome> {
    if (headless) {
      const interactive = this.interactive;
      this.interactive = false;
      try {
        return await this.runLine(line);
      } finally {
        this.interactive = interactive;
      }
    }
    const text = line.trim();
    if (text.length === 0) return { kind: 'usage', text: 'Type a message, or a command such as /seeds query.' };
    const slash = splitSlashCommand(text);
    if (!slash) return this.say(text);
    if (slash.name !== 'seeds') return { kind: 'usage', text: `Unknown command /${slash.name}. The playground knows /seeds (try /seeds query).` };
    return this.seeds(parseSeedsArgs(slash.args));
  }

  private async say(text: string): Promise<LineOutcome> {
    // A model replays toolCall/toolResult as a pair: no user message may come between them.
    if (this.pendingApproval) return { kind: 'usage', text: 'A seed_desk call is waiting for host approval: approve or deny it first, then write your message.' };
    const blocked = this.blockedOutcome();
    if (blocked) return blocked;
    const entry = userMessageEntry(text, this.place());
    if (!(await this.appendConversation(entry))) return { kind: 'failed', text: this.writeFailureText() };
    return { kind: 'said', text: `Added your message as entry ${entry.id}. The revision stays ${this.journal.revision()}.` };
  }

  private seeds(command: SeedsCommand): LineOutcome {
    const state = this.journal.state();
    switch (command.kind) {
      case 'usage':
        return { kind: 'usage', text: command.message };
      case 'query':
        return this.query(state, command.family);
      case 'reservation': {
        // Judged once here, from the raw count: only a valid request becomes a change a dialog shows.
        const request = { action: command.action, id: command.id, packets: command.packets, expectedRevision: state.revision, actor: 'human' } as const;
        const decision = decideReservation(state, request, { interactive: this.interactive });
        if (!decision.ok) return this.refused(decision.refusal);
        return this.confirmation({ kind: 'reservation', action: command.action, id: command.id, packets: Number(command.packets) }, state);
      }
      case 'grant':
        return this.prepare({ kind: 'grant', enabled: command.enabled }, state);
    }
  }

  private query(state: BranchState, family: string | undefined): LineOutcome {
    if (!state.ok) return this.refused(corruptRefusal(state));
    return { kind: 'answer', text: familyQuery(deskRows(state.snapshot), family, state.revision).text };
  }

  /** Before the dialog: refuse what can already be refused, else describe what will change. */
  private prepare(change: DeskChange, state: BranchState): LineOutcome {
    const decision = decideHumanChange(state, change, state.revision, { interactive: this.interactive });
    return decision.ok ? this.confirmation(change, state) : this.refused(decision.refusal);
  }

  private confirmation(change: DeskChange, state: BranchState): LineOutcome {
    return {
      kind: 'confirm',
      change,
      revision: state.revision,
      title: changeTitle(change),
      message: describeChange(change, state),
    };
  }

  // ---- commits ----

  /** After the dialog: commit with the revision read BEFORE it; the store checks it again. */
  async commitHumanChange(change: DeskChange, expectedRevision: Revision): Promise<CommitOutcomeView> {
    return this.commitDesk(change, expectedRevision, change.kind === 'grant' ? `agent-${change.enabled ? 'on' : 'off'}` : change.action);
  }

  private async commitDesk(change: DeskChange, expectedRevision: Revision, reason: string): Promise<CommitOutcomeView> {
    const blocked = this.blockedOutcome();
    if (blocked) return { kind: 'failed', message: blocked.text };
    const leafId = this.journal.leafId;
    const outcome = await this.commitSnapshot<Refusal>(
      leafId,
      this.journal.state(leafId),
      (state) => {
        const decision = decideHumanChange(state, change, expectedRevision, { interactive: this.interactive });
        return decision.ok ? { snapshot: decision.snapshot } : { reason: decision.refusal };
      },
      reason,
    );
    if (outcome.kind === 'failed') return { kind: 'failed', message: outcome.text };
    if (outcome.kind === 'declined') {
      const refused = this.refused(outcome.reason);
      return { kind: 'refused', code: outcome.reason.code, message: refused.text };
    }
    this.notice = null;
    const { state } = outcome;
    return { kind: 'committed', revision: state.revision, message: state.ok ? queryText(deskRows(state.snapshot), state.revision) : state.revision };
  }

  /**
   * The checked commit of one seed desk snapshot on `leafId`: `judge` decides on the stored branch
   * head inside the transaction (given `expected` itself on the fast path). On success the entry is
   * mirrored in memory and the change event emitted; a storage failure latches writes.
   */
  private async commitSnapshot<R>(
    leafId: EntryId | null,
    expected: BranchState,
    judge: (state: BranchState) => { readonly snapshot: Snapshot } | { readonly reason: R },
    reason: string,
  ): Promise<{ kind: 'failed'; text: string } | { kind: 'declined'; reason: R } | { kind: 'committed'; state: BranchState }> {
    const place = this.place();
    let outcome;
    try {
      outcome = await this.store.commitChecked<R>(this.sessionId, leafId, (state) => {
        const verdict = judge(state);
        return 'snapshot' in verdict ? { append: true, entries: [customEntry(SEED_DESK_CUSTOM_TYPE, verdict.snapshot, place)] } : { append: false, reason: verdict.reason };
      }, expected);
    } catch (error) {
      return { kind: 'failed', text: this.latch(error).text };
    }
    if (outcome.kind === 'declined') return outcome;
    this.mirror(outcome.records.map((record) => record.entry));
    const state = this.journal.state();
    this.emitChanged(reason, state);
    return { kind: 'committed', state };
  }

  /** The race demo: another, already-confirmed action lands while a dialog waits. */
  async meanwhileReserve(id: string, packets: number): Promise<CommitOutcomeView> {
    const current = this.journal.revision();
    return this.commitDesk({ kind: 'reservation', action: 'reserve', id, packets }, current, 'meanwhile-reserve');
  }

  // ---- the seed_desk tool, through the host ----

  setApprovalPolicy(policy: ApprovalPolicy | null): void {
    this.approvalPolicy = policy;
  }

  setApprovalMode(mode: ApprovalMode): void {
    this.approvalMode = mode;
  }

  /**
   * A model tool call, recorded as the host records it: an assistant message with the toolCall
   * block, then (after the gates and the domain) a toolResult message. A seed desk change made
   * by the call lands between the two.
   */
  async callTool(argsText: string, skipSchema: boolean): Promise<ToolCallOutcome> {
    if (this.pendingApproval) return { kind: 'failed', text: 'Another seed_desk call is waiting for approval: answer that prompt first.' };
    let args: unknown;
    try {
      args = JSON.parse(argsText);
    } catch (error) {
      return { kind: 'failed', text: `The tool arguments are not valid JSON, so no call was made: ${error instanceof Error ? error.message : String(error)}` };
    }
    const blocked = this.blockedOutcome();
    if (blocked) return { kind: 'failed', text: blocked.text };
    const callId = `call_${this.ids.entryId()}${this.ids.entryId()}`;
    const call = assistantMessageEntry([{ type: 'toolCall', id: callId, name: SEED_DESK_TOOL_NAME, arguments: args }], this.place(), 'toolUse');
    if (!(await this.appendConversation(call))) return { kind: 'failed', text: this.writeFailureText() };

    const verdict = gateToolCall(args, { policy: this.approvalPolicy, mode: this.approvalMode, interactive: this.interactive, skipSchema });
    switch (verdict.kind) {
      case 'invalid':
        return this.finishCall(callId, errorResult(verdict.message), 'schema');
      case 'blocked':
        return withApproval(await this.finishCall(callId, errorResult(verdict.message), 'approval'), verdict.approval);
      case 'ask':
        this.pendingApproval = { callId, args, prompt: verdict.prompt, approval: verdict.approval };
        return { kind: 'approval', callId, prompt: verdict.prompt, approval: verdict.approval };
      case 'run':
        return withApproval(await this.executeTool(callId, args), verdict.approval);
    }
  }

  async answerApproval(callId: string, approved: boolean): Promise<ToolCallOutcome> {
    const pending = this.pendingApproval;
    if (!pending || pending.callId !== callId) return { kind: 'failed', text: 'No seed_desk call is waiting for this approval.' };
    const blocked = this.blockedOutcome();
    if (blocked) return { kind: 'failed', text: blocked.text };
    this.pendingApproval = null;
    if (!approved) return withApproval(await this.finishCall(callId, errorResult(DENIED_BY_USER), 'approval'), pending.approval);
    return withApproval(await this.executeTool(callId, pending.args), pending.approval);
  }

  private async executeTool(callId: string, args: unknown): Promise<ToolCallOutcome> {
    const leafId = this.journal.leafId;
    const expected = this.journal.state(leafId);
    const plan = planSeedDeskCall(args, expected);
    if (plan.kind === 'error') return this.finishCall(callId, errorResult(plan.message), 'domain');
    if (plan.kind === 'answer') {
      if (!plan.result.details.ok) this.notify('warning', plan.result.content[0].text);
      return this.finishCall(callId, { ...plan.result, isError: false }, 'domain');
    }
    // The store re-plans on the stored branch head inside the commit transaction; on the fast path
    // that head is `expected` itself, already planned above.
    const outcome = await this.commitSnapshot<ToolResult>(
      leafId,
      expected,
      (state) => {
        const again = state === expected ? plan : planSeedDeskCall(args, state);
        if (again.kind === 'commit') return { snapshot: again.snapshot };
        return { reason: again.kind === 'answer' ? again.result : errorToolResult(again.message) };
      },
      'agent-act',
    );
    if (outcome.kind === 'failed') return { kind: 'failed', text: outcome.text };
    if (outcome.kind === 'declined') return this.finishCall(callId, { ...outcome.reason, isError: false }, 'domain');
    return this.finishCall(callId, { ...plan.describe(outcome.state.revision), isError: false }, 'domain');
  }

  private async finishCall(callId: string, result: ToolResult & { isError: boolean }, stage: 'schema' | 'approval' | 'domain'): Promise<ToolCallOutcome> {
    const text = result.content[0].text;
    const details = result.isError ? undefined : result.details;
    const entry = toolResultEntry({ toolCallId: callId, toolName: SEED_DESK_TOOL_NAME, content: result.content, details, isError: result.isError }, this.place());
    if (!(await this.appendConversation(entry))) return { kind: 'failed', text: this.writeFailureText() };
    if (result.isError) this.notify('error', text);
    return { kind: 'result', callId, stage, isError: result.isError, text, details: details ?? null };
  }

  /** Demo only, clearly labelled in the UI: appends a snapshot that breaks the format. */
  async appendCorruptSnapshot(): Promise<CommitOutcomeView> {
    const blocked = this.blockedOutcome();
    if (blocked) return { kind: 'failed', message: blocked.text };
    const entry = customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 99 } }, this.place());
    if (!(await this.appendConversation(entry))) return { kind: 'failed', message: this.writeFailureText() };
    const state = this.journal.state();
    this.emitChanged('demo-corrupt', state);
    return { kind: 'committed', revision: state.revision, message: `Appended an invalid snapshot (${entry.id}): 99 basil of 8. This branch now refuses everything with corrupt-state; step back to leave it.` };
  }

  // ---- navigation and session ----

  /** Host `/tree` selection. */
  navigate(entryId: EntryId): void {
    this.refuseMoveWhileApprovalWaits();
    const result = this.journal.navigateTo(entryId);
    this.noteLeafMove();
    this.notice = this.journal.leafIsTransient() ? transientNotice(result.leafId) : null;
  }

  /** Moves the leaf one step up (the race demo's "tree moves"). */
  stepBack(): void {
    this.refuseMoveWhileApprovalWaits();
    const leaf = this.journal.leafId;
    if (leaf === null) return;
    this.journal.moveLeaf(this.journal.parentIdOf(leaf));
    this.noteLeafMove();
    this.notice = transientNotice(this.journal.leafId);
  }

  moveLeaf(entryId: EntryId | null): void {
    this.refuseMoveWhileApprovalWaits();
    this.journal.moveLeaf(entryId);
    this.noteLeafMove();
    this.notice = this.journal.leafIsTransient() ? transientNotice(entryId) : null;
  }

  /**
   * The database connection is gone (another tab upgraded or deleted it, or the browser closed
   * it). What this tab shows stays in memory; writes stop until a reopen reconnects.
   */
  storageLost(reason: string): void {
    this.writeFailure = reason;
    this.notify('error', `${reason} Writes are stopped; reopen the session (or reload the tab) to continue.`);
  }

  async reopen(): Promise<void> {
    const behind = this.leafBehind();
    const from = this.journal.leafId;
    await this.store.reconnect();
    const reloaded = await loadJournal(this.store, this.sessionId);
    if (!reloaded) {
      this.writeFailure = `Session ${this.sessionId} is no longer in the database (another tab may have deleted the database). Start a new session, or import an exported file.`;
      throw new StorageFailure(this.writeFailure);
    }
    this.journal = reloaded;
    this.forgetLeafHistory();
    this.writeFailure = null;
    if (this.pendingApproval) {
      this.notify('warning', `The seed_desk call ${this.pendingApproval.callId} was waiting for approval; the reopen dropped it without a result, as a restarted host would.`);
      this.pendingApproval = null;
    }
    this.notice =
      behind && from !== reloaded.leafId
        ? leafReturnNotice('reopen', behind, from, reloaded.leafId)
        : `Reopened: the leaf is on the last appended entry (${reloaded.leafId ?? 'none'}), where you stood.`;
    this.notify('info', this.notice);
  }

  setInteractive(interactive: boolean): void {
    this.interactive = interactive;
  }

  injectFault(fault: StoreFault | null): void {
    this.store.injectFault(fault);
  }

  /** The session tree as display rows; row text is clipped like every other display text. */
  tree(filter: TreeFilter): { rows: TreeRow[]; leafId: EntryId | null } {
    const rows = filterRows(flattenTree(this.journal), filter).map((row) => (row.text.length > ROW_TEXT_LIMIT ? { ...row, text: clip(row.text, ROW_TEXT_LIMIT) } : row));
    return { rows, leafId: this.journal.leafId };
  }

  /** The current branch beside the branch ending at `otherId`. */
  compareWith(otherId: EntryId | null): BranchComparison {
    return compareBranches(this.journal, this.journal.leafId, otherId);
  }

  journalJsonl(): string {
    return toSessionJsonl(this.journal.header, this.journal.entries());
  }

  /**
   * The journal's JSONL lines, serialised once each: entries never change after they are
   * appended, so only the new ones are turned into text on each call.
   */
  private jsonlLines(): readonly string[] {
    const journal = this.journal;
    if (this.lineCache.journal !== journal) this.lineCache = { journal, lines: toSessionJsonl(journal.header, []).split('\n').filter((line) => line.length > 0) };
    const lines = this.lineCache.lines;
    const entries = journal.entries();
    for (let index = lines.length - 1; index < entries.length; index++) lines.push(JSON.stringify(entries[index]));
    return lines;
  }

  /** The journal panel: lines containing `filter` (plain text, as grep would), the last ones first to go. */
  journalLines(filter: string): { lineCount: number; matchCount: number; lines: string[] } {
    const lines = this.jsonlLines();
    const matches = filter.length === 0 ? lines : lines.filter((line) => line.includes(filter));
    // Filtered on the whole line, shown clipped: one 1 MB line must not freeze the page's layout.
    return { lineCount: lines.length, matchCount: matches.length, lines: matches.slice(-JOURNAL_LINES_LIMIT).map((line) => clip(line, JOURNAL_LINE_LIMIT)) };
  }

  // ---- sessions ----

  async listSessions(): Promise<SessionSummary[]> {
    const sessions = await this.store.listSessions();
    return Promise.all(
      sessions.map(async (session) => ({
        id: session.id,
        title: typeof session.header.title === 'string' ? session.header.title : null,
        parentSession: session.header.parentSession ?? null,
        createdAt: session.createdAt,
        entryCount: session.id === this.sessionId ? this.journal.size : await this.store.countEntries(session.id),
        current: session.id === this.sessionId,
      })),
    );
  }

  /** Host `newSession`: a fresh identity, no carried state, no grant. */
  async newSession(): Promise<void> {
    this.refuseWhileApprovalWaits('start a new session');
    this.useJournal(await createSession(this.store, this.ids), 'Started a new session: nothing reserved, agent off, a new identity.');
    this.onSessionsChanged?.();
  }

  async switchSession(sessionId: SessionId): Promise<void> {
    this.refuseWhileApprovalWaits('switch sessions');
    const journal = await loadJournal(this.store, sessionId);
    if (!journal) throw new Error(`Session ${sessionId} is not in this browser's journal.`);
    this.useJournal(journal, `Switched to session ${sessionId}; the leaf is on its last appended entry.`);
  }

  /** Host `/branch`-style fork: the path to the leaf copied with its ids into a new session. */
  async forkSession(): Promise<void> {
    this.refuseWhileApprovalWaits('fork the session');
    const fork = this.journal.forkToNewSession(this.ids);
    await this.store.createSession(fork.header, fork.entries());
    this.useJournal(fork, `Forked into session ${fork.sessionId}: the same path and state, a new identity, so a new revision.`);
    this.onSessionsChanged?.();
  }

  exportSession(): { fileName: string; jsonl: string } {
    // The same name a fork of this session records as its parentSession.
    return { fileName: sessionFileName(this.journal.header), jsonl: this.journalJsonl() };
  }

  /** All or nothing: a file that cannot be read, or a session already here, writes nothing. */
  async importSession(file: Blob, onProgress: (phase: string, done: number, total: number) => void): Promise<ImportReport> {
    this.refuseWhileApprovalWaits('import a session');
    onProgress('reading', 0, file.size);
    const text = await file.text();
    onProgress('parsing', file.size, file.size);
    const parsed = parseSessionJsonl(text, this.ids);
    if (!parsed.ok) return { ok: false, line: parsed.error.line, message: parsed.error.message };
    if (await this.store.getSession(parsed.header.id)) {
      return { ok: false, line: 1, message: `Session ${parsed.header.id} is already in this playground. Switch to it in the session list instead.`, existingSessionId: parsed.header.id };
    }
    await this.store.createSession(parsed.header, parsed.entries, (done, total) => onProgress('storing', done, total));
    const journal = SessionJournal.fromEntries(parsed.header, parsed.entries);
    this.useJournal(journal, `Imported session ${journal.sessionId} (${journal.size} entries); the leaf is on the last entry.`);
    this.onSessionsChanged?.();
    const cap = <T,>(items: readonly T[]) => items.slice(0, IMPORT_REPORT_LIMIT);
    return {
      ok: true,
      sessionId: journal.sessionId,
      entries: journal.size,
      migratedFrom: parsed.migratedFrom,
      hadTitleSlot: parsed.hadTitleSlot,
      skipped: cap(parsed.skipped),
      skippedCount: parsed.skipped.length,
      warnings: cap(parsed.warnings),
      warningCount: parsed.warnings.length,
    };
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

  // ---- helpers ----

  private useJournal(journal: SessionJournal, notice: string): void {
    this.journal = journal;
    this.forgetLeafHistory();
    this.writeFailure = null;
    this.notice = notice;
    this.notify('info', notice);
    void this.store.setLastSession(journal.sessionId);
  }

  private refuseWhileApprovalWaits(what: string): void {
    if (this.pendingApproval) throw new Error(`A seed_desk call is waiting for host approval: approve or deny it before you ${what}.`);
  }

  /** Every append this tab makes goes through here: memory mirror first, then the other tabs. */
  private mirror(entries: readonly JournalEntry[]): void {
    for (const entry of entries) this.journal.append(entry);
    this.leafNavigated = false;
    this.onAppended?.(this.sessionId, entries);
  }

  /** The call's result must land under its own tool-call message, so the tree stays put meanwhile. */
  private refuseMoveWhileApprovalWaits(): void {
    this.refuseWhileApprovalWaits('move in the session tree');
  }

  private place(): { id: EntryId; parentId: EntryId | null; timestamp: string } {
    return { id: freshEntryId(this.ids, (id) => this.journal.has(id)), parentId: this.journal.leafId, timestamp: this.ids.now() };
  }

  /** Appends without a desk check (conversation never changes the revision); false when storage failed. */
  private async appendConversation(entry: JournalEntry): Promise<boolean> {
    try {
      await this.store.append(this.sessionId, this.journal.leafId, [entry]);
    } catch (error) {
      this.latch(error);
      return false;
    }
    this.mirror([entry]);
    this.notice = null;
    return true;
  }

  private writeFailureText(): string {
    return `Storage failed, nothing was appended: ${this.writeFailure ?? 'unknown error'} Writes are stopped until you reopen the session.`;
  }

  private blockedOutcome(): { kind: 'failed'; text: string } | null {
    return this.writeFailure === null
      ? null
      : { kind: 'failed', text: `Writes are stopped after a storage failure (${this.writeFailure}). Reopen the session to continue; queries still work.` };
  }

  private latch(error: unknown): { kind: 'failed'; text: string } {
    this.writeFailure = error instanceof Error ? error.message : String(error);
    const text = this.writeFailureText();
    this.notify('error', text);
    return { kind: 'failed', text };
  }

  private refused(r: Refusal): { kind: 'refused'; code: Refusal['code']; text: string } {
    const text = refusalText(r);
    this.notify('warning', text);
    return { kind: 'refused', code: r.code, text };
  }

  private notify(level: 'info' | 'warning' | 'error', text: string): void {
    this.pushEvent({ kind: 'notification', level, text });
  }

  private emitChanged(reason: string, state: BranchState): void {
    const payload = {
      reason,
      revision: state.revision,
      agentEnabled: state.ok ? state.snapshot.agentEnabled : null,
      quantities: state.ok ? state.snapshot.quantities : null,
    };
    this.pushEvent({ kind: 'event', channel: CHANGED_EVENT, payload: JSON.stringify(payload) });
  }

  private pushEvent(item: DistributiveOmit<EventLogItem, 'seq'>): void {
    this.events.push({ ...item, seq: ++this.eventSeq } as EventLogItem);
    if (this.events.length > EVENT_LOG_LIMIT) this.events.splice(0, this.events.length - EVENT_LOG_LIMIT);
  }

  /** Null when a reopen would keep the leaf where it is; else what moved it off the last appended entry. */
  private leafBehind(): LeafBehind | null {
    if (!this.journal.leafIsTransient()) return null;
    const last = this.journal.lastAppendedId();
    return { navigated: this.leafNavigated, foreignEntryId: last !== null && this.foreignIds.has(last) ? last : null };
  }

  private noteLeafMove(): void {
    this.leafNavigated = this.journal.leafIsTransient();
  }

  private forgetLeafHistory(): void {
    this.leafNavigated = false;
    this.foreignIds = new Set();
  }

  /** The host's persistence gate: nothing reaches its session file before the first assistant message. */
  private hostFileWritten(): boolean {
    const scan = this.assistantScan.journal === this.journal ? this.assistantScan : { journal: this.journal, checked: 0, found: false };
    if (!scan.found) {
      const entries = this.journal.entries();
      for (let index = scan.checked; index < entries.length && !scan.found; index++) {
        const entry = entries[index];
        scan.found = entry !== undefined && messageRole(entry) === 'assistant';
      }
      scan.checked = entries.length;
    }
    this.assistantScan = scan;
    return scan.found;
  }

  private branchItems(): BranchItem[] {
    return this.journal.branchTail(BRANCH_VIEW_LIMIT).map((entry) => branchItem(entry, this.journal));
  }

}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Entry types the host's `buildSessionContext` turns into model messages; `custom` and `label` are not among them. */
const MODEL_VISIBLE_TYPES: ReadonlySet<string> = new Set(['message', 'custom_message', 'branch_summary', 'compaction']);

/** The approval resolution travels with the call's outcome, so the page can say which gate decided. */
function withApproval(outcome: ToolCallOutcome, approval: ApprovalResolution): ToolCallOutcome {
  return outcome.kind === 'result' ? { ...outcome, approval } : outcome;
}

function errorToolResult(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], details: { ok: false, scope: 'seed_desk' } };
}

function errorResult(message: string): ToolResult & { isError: boolean } {
  return { ...errorToolResult(message), isError: true };
}

function describeChange(change: DeskChange, state: BranchState): string {
  if (change.kind === 'grant') {
    return change.enabled
      ? 'The agent may then reserve and release fictional seed packets on this branch through seed_desk act, and nothing else. You can switch it off again with /seeds agent off.'
      : 'The agent will no longer be able to reserve or release packets on this branch; its act calls will be refused with agent-disabled.';
  }
  const row = state.ok ? deskRows(state.snapshot).find((candidate) => candidate.id === change.id) : undefined;
  const before = row ? `${row.reserved} reserved, ${row.available} available` : '';
  const delta = change.action === 'reserve' ? change.packets : -change.packets;
  const after = row ? `${row.reserved + delta} reserved, ${row.available - delta} available` : '';
  return `${capitalize(change.action)} ${change.packets} ${change.id} on this branch: ${before} now, ${after} after. Decided on revision ${state.revision}.`;
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Display text only: the journal keeps every character; the page shows a bounded piece. */
function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${(text.length - limit).toLocaleString('en')} more characters)`;
}

function transientNotice(leafId: EntryId | null): string {
  return `The leaf moved to ${leafId ?? 'the start of the session'} without appending anything. A reopen (or a reload) returns to the last appended entry unless you add something here.`;
}

function branchItem(entry: JournalEntry, journal: SessionJournal): BranchItem {
  const type = entryTypeOf(entry);
  const base = { id: entry.id, type, label: journal.labelOf(entry.id) ?? null, modelVisible: MODEL_VISIBLE_TYPES.has(type) };
  if (isSeedDeskEntry(entry)) {
    const data = entry['data'];
    return { ...base, role: 'seed-desk', text: clip(JSON.stringify(data) ?? '', BRANCH_TEXT_LIMIT), revision: journal.revision(entry.id) };
  }
  return { ...base, role: messageRole(entry) ?? type, text: clip(entryText(entry), BRANCH_TEXT_LIMIT), revision: null };
}

async function loadJournal(store: JournalStore, sessionId: SessionId): Promise<SessionJournal | null> {
  const session = await store.getSession(sessionId);
  if (!session) return null;
  const records = await store.loadEntries(sessionId);
  return SessionJournal.fromEntries(session.header, records.map((record) => record.entry));
}

async function createSession(store: JournalStore, ids: IdSource): Promise<SessionJournal> {
  const header = sessionHeader(ids.sessionId() as SessionId, ids.now(), '/playground');
  await store.createSession(header);
  return SessionJournal.empty(header);
}

