import { freshEntryId, type EntryId, type IdSource, type Revision, type SessionId } from '../ids';
import { branchStateFrom, foldDeskEntry, ROOT_LINK, type BranchState, type DeskLinkState } from '../reconstruct';
import { revisionOf } from '../revision';
import {
  entryText,
  isReeditable,
  isSeedDeskEntry,
  labelEntry,
  sessionHeader,
  type JournalEntry,
  type SessionHeader,
} from './entry';

/** Per-entry derived facts; rebuildable from the entries alone (see `SessionJournal.fromEntries`). */
interface Indexed {
  readonly entry: JournalEntry;
  /** Position in append order. */
  readonly seq: number;
  /** Depth from its root (a root is 0). */
  readonly depth: number;
  /** The nearest seed desk entry at or above this entry, or null. Makes a revision O(1). */
  readonly deskHead: EntryId | null;
  /** Only on seed desk entries: the state the branch has once this entry is folded in. */
  readonly deskLink: DeskLinkState | null;
}

export class JournalError extends Error {}

export interface NavigationResult {
  readonly leafId: EntryId | null;
  /** Text handed back to the editor when a user message was chosen (host `/tree` rule). */
  readonly editorText?: string;
}

/**
 * One session's journal in memory: the host's SessionManager semantics (append-only tree, an
 * in-memory leaf, global labels) plus a desk index so that the revision and the state of any
 * branch cost O(1) instead of a walk over the whole file.
 */
export class SessionJournal {
  readonly header: SessionHeader;
  private readonly ordered: JournalEntry[] = [];
  private readonly index = new Map<string, Indexed>();
  private readonly kids = new Map<string | null, EntryId[]>();
  private readonly labels = new Map<string, string>();
  private leaf: EntryId | null = null;
  private deskEntries = 0;

  private constructor(header: SessionHeader) {
    this.header = header;
  }

  static empty(header: SessionHeader): SessionJournal {
    return new SessionJournal(header);
  }

  /**
   * Rebuild from stored entries in append order. An entry whose parent is unknown (or comes
   * later) is kept as a root, as the host's getTree treats orphans; a duplicate id is an error.
   * The leaf lands on the last entry, as on the host's reopen.
   */
  static fromEntries(header: SessionHeader, entries: Iterable<JournalEntry>): SessionJournal {
    const journal = new SessionJournal(header);
    for (const entry of entries) journal.insert(entry);
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
    return this.ordered.length;
  }

  /** Every entry in append order, all branches. */
  entries(): readonly JournalEntry[] {
    return this.ordered;
  }

  get(id: string): JournalEntry | undefined {
    return this.index.get(id)?.entry;
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  seqOf(id: string): number | undefined {
    return this.index.get(id)?.seq;
  }

  depthOf(id: string): number | undefined {
    return this.index.get(id)?.depth;
  }

  /** Children in append order; `null` gives the roots (including orphans). */
  childrenOf(id: EntryId | null): readonly EntryId[] {
    return this.kids.get(id) ?? [];
  }

  lastAppendedId(): EntryId | null {
    return this.ordered.at(-1)?.id ?? null;
  }

  /** Host `getBranch`: root → leaf (or → `fromId`), header excluded; [] for a null leaf. */
  branch(fromId: EntryId | null = this.leaf): JournalEntry[] {
    return this.branchTail(Number.POSITIVE_INFINITY, fromId);
  }

  /**
   * insert() keeps an entry whose parent comes later (or is itself) as a root, and so must every
   * walk: otherwise state() and the walk disagree, and a self-parent loops forever.
   */
  private parentOf(indexed: Indexed): Indexed | undefined {
    const parentId = indexed.entry.parentId;
    const parent = parentId === null ? undefined : this.index.get(parentId);
    return parent && parent.seq < indexed.seq ? parent : undefined;
  }

  /** How many seed desk entries the whole journal holds, all branches. */
  get seedDeskEntryCount(): number {
    return this.deskEntries;
  }

  /** The last `limit` entries of the branch ending at `fromId`, root-most first: O(limit), not O(depth). */
  branchTail(limit: number, fromId: EntryId | null = this.leaf): JournalEntry[] {
    const tail: JournalEntry[] = [];
    let cursor = fromId === null ? undefined : this.index.get(fromId);
    while (cursor && tail.length < limit) {
      tail.push(cursor.entry);
      cursor = this.parentOf(cursor);
    }
    return tail.reverse();
  }

  /** Append as a child of the current leaf; the entry becomes the leaf. */
  append(entry: JournalEntry): void {
    if (entry.parentId !== this.leaf) {
      throw new JournalError(`Entry ${entry.id} must hang off the leaf ${this.leaf ?? '(none)'}, not ${entry.parentId ?? '(none)'}`);
    }
    this.insert(entry);
    this.leaf = entry.id;
  }

  /**
   * An entry appended elsewhere (another tab) joins the tree without moving this tab's leaf, as
   * each tab keeps its own leaf. Returns false when it was already known.
   */
  adopt(entry: JournalEntry): boolean {
    if (this.index.has(entry.id)) return false;
    this.insert(entry);
    return true;
  }

  /** Host `branch(id)` / `resetLeaf()`: moves the in-memory leaf only; nothing is written. */
  moveLeaf(id: EntryId | null): void {
    if (id !== null && !this.index.has(id)) throw new JournalError(`Entry ${id} not found`);
    this.leaf = id;
  }

  /** Host `/tree`: a user message or custom_message puts the leaf on its parent and re-edits its text. */
  navigateTo(id: EntryId): NavigationResult {
    const entry = this.get(id);
    if (!entry) throw new JournalError(`Entry ${id} not found`);
    if (isReeditable(entry)) {
      const parent = this.parentIdOf(entry.id);
      this.leaf = parent;
      return { leafId: parent, editorText: entryText(entry) };
    }
    this.leaf = entry.id;
    return { leafId: entry.id };
  }

  /** The parent as every walk sees it: null for a root or an orphan (see parentOf). */
  parentIdOf(id: EntryId): EntryId | null {
    const indexed = this.index.get(id);
    return indexed ? (this.parentOf(indexed)?.entry.id ?? null) : null;
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
    return id === null ? null : (this.index.get(id)?.deskHead ?? null);
  }

  revision(at: EntryId | null = this.leaf): Revision {
    return revisionOf(this.sessionId, this.deskHeadOf(at));
  }

  /** The reconstructed desk of the branch ending at `at` (the leaf by default), from the index. */
  state(at: EntryId | null = this.leaf): BranchState {
    const head = this.deskHeadOf(at);
    return branchStateFrom(this.sessionId, head, this.linkOf(head));
  }

  /** Labels are global: the last label entry for a target wins, whatever its branch. */
  labelOf(id: EntryId): string | undefined {
    return this.labels.get(id);
  }

  allLabels(): ReadonlyMap<string, string> {
    return this.labels;
  }

  /**
   * Host `createBranchedSession`: a new session holding the path to `leafId` with its original
   * ids, `parentSession` pointing back, label entries dropped and re-appended for the path.
   */
  forkToNewSession(ids: IdSource, leafId: EntryId | null = this.leaf, cwd = this.header.cwd ?? '/playground'): SessionJournal {
    const newId = ids.sessionId() as SessionId;
    const fork = SessionJournal.empty(sessionHeader(newId, ids.now(), cwd, this.sessionId));
    const path = this.branch(leafId).filter((entry) => entry.type !== 'label');
    for (const entry of path) fork.append({ ...entry, parentId: fork.leafId });
    for (const entry of path) {
      const label = this.labels.get(entry.id);
      if (label === undefined) continue;
      const id = freshEntryId(ids, (candidate) => fork.has(candidate));
      fork.append(labelEntry(entry.id, label, { id, parentId: fork.leafId, timestamp: ids.now() }));
    }
    return fork;
  }

  private insert(entry: JournalEntry): void {
    if (this.index.has(entry.id)) throw new JournalError(`Duplicate entry id ${entry.id}`);
    const parent = entry.parentId === null ? undefined : this.index.get(entry.parentId);
    const parentKey = parent ? entry.parentId : null;
    const deskLink = isSeedDeskEntry(entry) ? foldDeskEntry(this.linkOf(parent?.deskHead ?? null), entry) : null;
    if (deskLink) this.deskEntries++;
    this.index.set(entry.id, {
      entry,
      seq: this.ordered.length,
      depth: parent ? parent.depth + 1 : 0,
      deskHead: deskLink ? entry.id : (parent?.deskHead ?? null),
      deskLink,
    });
    this.ordered.push(entry);
    const siblings = this.kids.get(parentKey);
    if (siblings) siblings.push(entry.id);
    else this.kids.set(parentKey, [entry.id]);
    if (entry.type === 'label') this.applyLabel(entry);
  }

  /** The desk state a seed desk entry left behind; the empty desk before any. */
  private linkOf(deskHead: EntryId | null): DeskLinkState {
    return deskHead === null ? ROOT_LINK : (this.index.get(deskHead)?.deskLink ?? ROOT_LINK);
  }

  private applyLabel(entry: JournalEntry): void {
    const target = entry['targetId'];
    if (typeof target !== 'string') return;
    const label = entry['label'];
    if (typeof label === 'string' && label.length > 0) this.labels.set(target, label);
    else this.labels.delete(target);
  }
}

