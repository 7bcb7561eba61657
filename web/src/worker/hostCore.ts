import { freshEntryId, type EntryId, type IdSource, type SessionId } from '$domain/ids';
import { customEntry, type JournalEntry } from '$domain/journal/entry';
import type { SessionJournal } from '$domain/journal/journal';
import type { BranchState } from '$domain/reconstruct';
import { refusalText, type Refusal } from '$domain/refusal';
import { SEED_DESK_CUSTOM_TYPE, type Snapshot } from '$domain/snapshot';
import { CHANGED_EVENT, type LeafBehind } from '../protocol/messages';
import { DEFAULT_APPROVAL_MODE, type ApprovalMode, type ApprovalResolution } from './approval';
import { EventLog } from './eventLog';
import type { JournalStore, SessionHead } from './store';
import type { ApprovalPolicy } from './toolGate';

/** A tool call waiting on the host's approval prompt. */
export interface PendingApproval {
  readonly callId: string;
  readonly args: unknown;
  readonly prompt: string;
  readonly approval: ApprovalResolution;
}

export type CommitSnapshotOutcome<R> = { kind: 'failed'; text: string } | { kind: 'declined'; reason: R } | { kind: 'committed'; state: BranchState };

/**
 * What every part of the simulated host shares: the open journal (memory mirror of the store),
 * the in-memory leaf's history, the UI switch, the approval settings, the storage latch and the
 * event log — and the few primitives through which every append passes (`appendConversation`
 * for entries without a desk check, `commitSnapshot` for the checked commit), so the mirror,
 * the latch and the other tabs are always told the same way.
 */
export class HostCore {
  interactive = true;
  /** The user's `tools.approval.seed_desk`: unset by default, as in the host. */
  approvalPolicy: ApprovalPolicy | null = null;
  approvalMode: ApprovalMode = DEFAULT_APPROVAL_MODE;
  pendingApproval: PendingApproval | null = null;
  /** Set after a failed write; cleared only by a reopen (the host latches storage failures). */
  writeFailure: string | null = null;
  notice: string | null = null;
  readonly events = new EventLog();
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
  /** Told about every append this tab made, so other tabs can be told (BroadcastChannel). */
  onAppended: ((sessionId: SessionId, entries: readonly JournalEntry[]) => void) | null = null;
  /** Told when the list of sessions changed here (created, imported, forked). */
  onSessionsChanged: (() => void) | null = null;

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

  /** Appends without a desk check (conversation never changes the revision); false when storage failed. */
  async appendConversation(entry: JournalEntry): Promise<boolean> {
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

  /**
   * The checked commit of one seed desk snapshot on `leafId`: `judge` decides on the stored branch
   * head inside the transaction (given `expected` itself on the fast path). On success the entry is
   * mirrored in memory and the change event emitted; a storage failure latches writes.
   */
  async commitSnapshot<R>(
    leafId: EntryId | null,
    expected: BranchState,
    judge: (state: BranchState) => { readonly snapshot: Snapshot } | { readonly reason: R },
    reason: string,
  ): Promise<CommitSnapshotOutcome<R>> {
    const place = this.place();
    let outcome;
    try {
      outcome = await this.store.commitChecked<R>(
        this.sessionId,
        leafId,
        (state) => {
          const verdict = judge(state);
          return 'snapshot' in verdict ? { append: true, entries: [customEntry(SEED_DESK_CUSTOM_TYPE, verdict.snapshot, place)] } : { append: false, reason: verdict.reason };
        },
        expected,
      );
    } catch (error) {
      return { kind: 'failed', text: this.latch(error).text };
    }
    if (outcome.kind === 'declined') return outcome;
    this.mirror(outcome.records.map((record) => record.entry));
    const state = this.journal.state();
    this.emitChanged(reason, state);
    return { kind: 'committed', state };
  }

  /** Every append this tab makes ends here: memory mirror first, then the other tabs. */
  private mirror(entries: readonly JournalEntry[]): void {
    for (const entry of entries) this.journal.append(entry);
    this.leafNavigated = false;
    this.onAppended?.(this.sessionId, entries);
  }

  /** Switches to another journal (new, switched to, forked, imported, reopened): the leaf's history starts over. */
  useJournal(journal: SessionJournal, notice: string | null): void {
    this.journal = journal;
    this.leafNavigated = false;
    this.foreignIds = new Set();
    this.writeFailure = null;
    this.notice = notice;
    if (notice !== null) this.notify('info', notice);
    void this.store.setLastSession(journal.sessionId);
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
    if (this.pendingApproval) throw new Error(`A seed_desk call is waiting for host approval: approve or deny it before you ${what}.`);
  }

  writeFailureText(): string {
    return `Storage failed, nothing was appended: ${this.writeFailure ?? 'unknown error'} Writes are stopped until you reopen the session.`;
  }

  blockedOutcome(): { kind: 'failed'; text: string } | null {
    return this.writeFailure === null
      ? null
      : { kind: 'failed', text: `Writes are stopped after a storage failure (${this.writeFailure}). Reopen the session to continue; queries still work.` };
  }

  latch(error: unknown): { kind: 'failed'; text: string } {
    this.writeFailure = error instanceof Error ? error.message : String(error);
    const text = this.writeFailureText();
    this.notify('error', text);
    return { kind: 'failed', text };
  }

  refused(refusal: Refusal): { kind: 'refused'; code: Refusal['code']; text: string } {
    const text = refusalText(refusal);
    this.notify('warning', text);
    return { kind: 'refused', code: refusal.code, text };
  }

  notify(level: 'info' | 'warning' | 'error', text: string): void {
    this.events.add({ kind: 'notification', level, text });
  }

  emitChanged(reason: string, state: BranchState): void {
    const payload = {
      reason,
      revision: state.revision,
      agentEnabled: state.ok ? state.snapshot.agentEnabled : null,
      quantities: state.ok ? state.snapshot.quantities : null,
    };
    this.events.add({ kind: 'event', channel: CHANGED_EVENT, payload: JSON.stringify(payload) });
  }

  /** Null when a reopen would keep the leaf where it is; else what moved it off the last appended entry. */
  leafBehind(): LeafBehind | null {
    if (!this.journal.leafIsTransient()) return null;
    const last = this.journal.lastAppendedId();
    return { navigated: this.leafNavigated, foreignEntryId: last !== null && this.foreignIds.has(last) ? last : null };
  }

  /** Called after every move of the leaf that appended nothing. */
  noteLeafMove(): void {
    this.leafNavigated = this.journal.leafIsTransient();
  }
}
