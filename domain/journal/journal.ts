import { asEntryId, freshEntryId, type EntryId, type IdSource, type Revision, type SessionId } from '../ids';
import { stateOfIndex, type BranchState } from '../reconstruct';
import { revisionOf } from '../revision';
import {
  editorTextOf,
  isReeditable,
  labelEntry,
  sessionFileName,
  sessionHeader,
  type JournalEntry,
  type SessionHeader,
} from './entry';
import { EntryTree } from './entryTree';
import { JournalError } from './journalError';

export interface NavigationResult {
  readonly leafId: EntryId | null;
  /** Text handed back to the editor when a user message was chosen (host `/tree` rule). */
  readonly editorText?: string;
}

/**
 * One session's journal in memory: the host's SessionManager semantics (append-only tree, an
 * in-memory leaf, global labels) over an `EntryTree`, whose desk index makes the revision and the
 * state of any branch cost O(1) instead of a walk over the whole file.
 */
export class SessionJournal {
  readonly header: SessionHeader;
  private readonly tree = new EntryTree();
  /** Labels in the order the host's label map holds them: first set first; a clear and a re-set moves one to the end. */
  private readonly labels = new Map<string, { readonly label: string; readonly timestamp: string | undefined }>();
  private leaf: EntryId | null = null;

  private constructor(header: SessionHeader) {
    this.header = header;
  }

  static empty(header: SessionHeader): SessionJournal {
    return new SessionJournal(header);
  }

  /**
   * Rebuild from stored entries in append order. An entry whose parent is unknown is kept as a
   * root, as the host's getTree treats orphans; a parent on a later line is linked once it is
   * read, as the host's index holds every line before any walk. A duplicate id is an error (the
   * import keeps the last line with an id). The leaf lands on the last entry, as on the host's reopen.
   */
  static fromEntries(header: SessionHeader, entries: Iterable<JournalEntry>): SessionJournal {
    const journal = new SessionJournal(header);
    journal.tree.insertAll(entries);
    for (const entry of journal.tree.entries()) if (entry.type === 'label') journal.applyLabel(entry);
    journal.reopen();
    return journal;
  }

  get sessionId(): SessionId {
    return this.header.id;
  }

  get leafId(): EntryId | null {
    return this.leaf;
  }

  get size(): number {
    return this.tree.size;
  }

  /** Every entry in append order, all branches. */
  entries(): readonly JournalEntry[] {
    return this.tree.entries();
  }

  get(id: string): JournalEntry | undefined {
    return this.tree.get(id);
  }

  has(id: string): boolean {
    return this.tree.has(id);
  }

  seqOf(id: string): number | undefined {
    return this.tree.seqOf(id);
  }

  depthOf(id: string): number | undefined {
    return this.tree.depthOf(id);
  }

  /** Children in append order; `null` gives the roots (including orphans). */
  childrenOf(id: EntryId | null): readonly EntryId[] {
    return this.tree.childrenOf(id);
  }

  lastAppendedId(): EntryId | null {
    return this.tree.lastAppendedId();
  }

  /** Host `getBranch`: root → leaf (or → `fromId`), header excluded; [] for a null leaf. */
  branch(fromId: EntryId | null = this.leaf): JournalEntry[] {
    return this.branchTail(Number.POSITIVE_INFINITY, fromId);
  }

  /** How many seed desk entries the whole journal holds, all branches. */
  get seedDeskEntryCount(): number {
    return this.tree.seedDeskEntryCount;
  }

  /** The last `limit` entries of the branch ending at `fromId`, root-most first: O(limit), not O(depth). */
  branchTail(limit: number, fromId: EntryId | null = this.leaf): JournalEntry[] {
    return this.tree.branchTail(limit, fromId);
  }

  /** Append as a child of the current leaf; the entry becomes the leaf. */
  append(entry: JournalEntry): void {
    if (entry.parentId !== this.leaf) {
      throw new JournalError(`Entry ${entry.id} must hang off the leaf ${this.leaf ?? '(none)'}, not ${entry.parentId ?? '(none)'}`);
    }
    // Host appendLabelChange: a label for an entry that does not exist is refused.
    if (entry.type === 'label') this.requireEntry(entry['targetId']);
    this.insert(entry);
    this.leaf = entry.id;
  }

  /**
   * An entry appended elsewhere (another tab) joins the tree without moving this tab's leaf, as
   * each tab keeps its own leaf. Returns false when it was already known.
   */
  adopt(entry: JournalEntry): boolean {
    if (this.tree.has(entry.id)) return false;
    this.insert(entry);
    return true;
  }

  /** Host `branch(id)` / `resetLeaf()`: moves the in-memory leaf only; nothing is written. */
  moveLeaf(id: EntryId | null): void {
    if (id !== null) this.requireEntry(id);
    this.leaf = id;
  }

  /**
   * Host `/tree` (`navigateTree`): the entry that is already the leaf changes nothing; a user
   * message or custom_message puts the leaf on its parent and re-edits its text; anything else
   * becomes the leaf.
   */
  navigateTo(id: EntryId): NavigationResult {
    if (id === this.leaf) return { leafId: this.leaf };
    const entry = this.requireEntry(id);
    if (isReeditable(entry)) {
      const parent = this.parentIdOf(entry.id);
      this.leaf = parent;
      return { leafId: parent, editorText: editorTextOf(entry) };
    }
    this.leaf = entry.id;
    return { leafId: entry.id };
  }

  /** Host `appendLabelChange`: a label entry for an existing target, appended at the leaf; no text clears it. */
  appendLabel(targetId: EntryId, label: string | undefined, place: { readonly id: EntryId; readonly timestamp: string }): JournalEntry {
    const entry = labelEntry(targetId, label, { id: place.id, parentId: this.leaf, timestamp: place.timestamp });
    this.append(entry);
    return entry;
  }

  /** The host's wording for an unknown id (`Entry <id> not found`), for every operation that names one. */
  private requireEntry(id: unknown): JournalEntry {
    const entry = typeof id === 'string' ? this.get(id) : undefined;
    if (!entry) throw new JournalError(`Entry ${String(id)} not found`);
    return entry;
  }

  /** The parent as every walk sees it: null for a root or an orphan (see `EntryTree`). */
  parentIdOf(id: EntryId): EntryId | null {
    return this.tree.parentIdOf(id);
  }

  /** Host reopen: the leaf goes back to the last entry in append order. */
  reopen(): void {
    this.leaf = this.lastAppendedId();
  }

  /** True when the leaf is somewhere a reopen would not put it back. */
  leafIsTransient(): boolean {
    return this.leaf !== this.lastAppendedId();
  }

  deskHeadOf(id: EntryId | null): EntryId | null {
    return this.tree.deskIndexAt(id).deskHead;
  }

  revision(at: EntryId | null = this.leaf): Revision {
    return revisionOf(this.sessionId, this.deskHeadOf(at));
  }

  /** The reconstructed desk of the branch ending at `at` (the leaf by default), from the index. */
  state(at: EntryId | null = this.leaf): BranchState {
    return stateOfIndex(this.sessionId, this.tree.deskIndexAt(at));
  }

  /** Labels are global: the last label entry for a target wins, whatever its branch. */
  labelOf(id: EntryId): string | undefined {
    return this.labels.get(id)?.label;
  }

  /** Target id → label, in the host's label-map order. */
  allLabels(): ReadonlyMap<string, string> {
    return new Map([...this.labels].map(([target, { label }]) => [target, label]));
  }

  /**
   * Host `createBranchedSession(leafId)` (an unknown id is an error), or `newSession` with a
   * `parentSession` for a null leaf: a new session holding the path to `leafId` with its
   * original ids and `parentSession` = this session's file name; label entries are dropped and the
   * labels of path entries re-appended after the path, in the host's label-map order, each with
   * the timestamp of the label entry that set it. Unlike the host, an entry whose parent was a
   * dropped label entry is re-parented onto its nearest kept ancestor: the host keeps the dangling
   * parentId, which orphans that entry and cuts its branch short when the fork is reopened.
   */
  forkToNewSession(ids: IdSource, leafId: EntryId | null = this.leaf, cwd = this.header.cwd ?? '/playground'): SessionJournal {
    // A null leaf is the host's fork of a root message: `newSession({ parentSession })`, an empty fork.
    if (leafId !== null) this.requireEntry(leafId);
    const path = this.branch(leafId);
    const newId = ids.sessionId() as SessionId;
    const fork = SessionJournal.empty(sessionHeader(newId, ids.now(), cwd, sessionFileName(this.header)));
    const kept = path.filter((entry) => entry.type !== 'label');
    for (const entry of kept) fork.append({ ...entry, parentId: fork.leafId });
    for (const [target, { label, timestamp }] of this.labels) {
      if (!fork.has(target)) continue;
      const id = freshEntryId(ids, (candidate) => fork.has(candidate));
      const entry = labelEntry(asEntryId(target), label, { id, parentId: fork.leafId, timestamp: timestamp ?? '' });
      // The host copies the setting label entry's own timestamp: none when that line had none.
      if (timestamp === undefined) delete entry.timestamp;
      fork.append(entry);
    }
    return fork;
  }

  private insert(entry: JournalEntry): void {
    this.tree.insert(entry);
    if (entry.type === 'label') this.applyLabel(entry);
  }

  /** Host `_buildIndex`: set keeps a label's place in the map (its timestamp is the latest set); a clear deletes it. */
  private applyLabel(entry: JournalEntry): void {
    const target = entry['targetId'];
    if (typeof target !== 'string') return;
    const label = entry['label'];
    if (typeof label === 'string' && label.length > 0) this.labels.set(target, { label, timestamp: entry.timestamp });
    else this.labels.delete(target);
  }
}
