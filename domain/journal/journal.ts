import { asEntryId, freshEntryId, type EntryId, type IdSource, type Revision, type SessionId } from '../ids';
import { deskIndexOf, ROOT_DESK_INDEX, stateOfIndex, type BranchState, type DeskIndex } from '../reconstruct';
import { revisionOf } from '../revision';
import {
  editorTextOf,
  isReeditable,
  isSeedDeskEntry,
  labelEntry,
  sessionFileName,
  sessionHeader,
  type JournalEntry,
  type SessionHeader,
} from './entry';

/** Per-entry derived facts; rebuildable from the entries alone (see `SessionJournal.fromEntries`). */
interface Indexed {
  readonly entry: JournalEntry;
  /** Position in append order. */
  readonly seq: number;
  /**
   * The parent every walk follows: the entry `entry.parentId` names once it is known, else null (a
   * root, as the host treats an orphan). A parent on a later line is linked when it arrives. Held
   * as the parent's record, not its id: a walk then follows references instead of looking each id
   * up in a map of every entry (at 100k entries those lookups made a 200-deep walk 1.3× slower
   * than at 1k; bench/domain.bench.ts).
   */
  parent: Indexed | null;
  /** Depth from its root (a root is 0). */
  depth: number;
  /** The desk index (`deskIndexOf`): makes a revision and a branch state O(1). */
  desk: DeskIndex;
  /** Scratch for `insertAll`'s parent walks: the walk that last passed here, or SETTLED. */
  mark: number;
}

/** `Indexed.mark` of an entry whose parent link is final. */
const SETTLED = -1;

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
  /** Labels in the order the host's label map holds them: first set first; a clear and a re-set moves one to the end. */
  private readonly labels = new Map<string, { readonly label: string; readonly timestamp: string | undefined }>();
  /** Roots waiting for a parent named on a later line: parent id → children, in append order. */
  private readonly waiting = new Map<string, EntryId[]>();
  private leaf: EntryId | null = null;
  private deskEntries = 0;

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
    journal.insertAll(entries);
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
   * Every walk follows the resolved parent, never `entry.parentId` itself: a self-parent or a loop
   * of parents is a root there (the host's getBranch would loop forever), so no walk can.
   */
  private parentOf(indexed: Indexed): Indexed | undefined {
    return indexed.parent ?? undefined;
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
    if (this.index.has(entry.id)) return false;
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
    return this.deskIndexAt(id).deskHead;
  }

  revision(at: EntryId | null = this.leaf): Revision {
    return revisionOf(this.sessionId, this.deskHeadOf(at));
  }

  /** The reconstructed desk of the branch ending at `at` (the leaf by default), from the index. */
  state(at: EntryId | null = this.leaf): BranchState {
    return stateOfIndex(this.sessionId, this.deskIndexAt(at));
  }

  /** The index of the branch ending at `at`; the root's for null or an unknown id. */
  private deskIndexAt(at: EntryId | null): DeskIndex {
    return (at === null ? undefined : this.index.get(at)?.desk) ?? ROOT_DESK_INDEX;
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
    if (this.index.has(entry.id)) throw new JournalError(`Duplicate entry id ${entry.id}`);
    const parentId = entry.parentId;
    const parent = parentId === null || parentId === entry.id ? undefined : this.index.get(parentId);
    const indexed: Indexed = { entry, seq: this.ordered.length, parent: parent ?? null, depth: 0, desk: ROOT_DESK_INDEX, mark: SETTLED };
    this.derive(indexed, parent);
    if (isSeedDeskEntry(entry)) this.deskEntries++;
    this.index.set(entry.id, indexed);
    this.ordered.push(entry);
    this.kidsOf(indexed.parent?.entry.id ?? null).push(entry.id);
    if (parentId !== null && parentId !== entry.id && !parent) {
      const list = this.waiting.get(parentId);
      if (list) list.push(entry.id);
      else this.waiting.set(parentId, [entry.id]);
    }
    if (this.waiting.has(entry.id)) this.adoptWaiting(indexed);
    if (entry.type === 'label') this.applyLabel(entry);
  }

  /**
   * The whole file at once, in O(n) however its parents are ordered (linking late parents one
   * insert at a time would derive a reversed chain n times): index every entry, resolve every
   * parent (a loop is cut at its first entry, which stays a root), then derive parents first.
   */
  private insertAll(entries: Iterable<JournalEntry>): void {
    for (const entry of entries) {
      if (this.index.has(entry.id)) throw new JournalError(`Duplicate entry id ${entry.id}`);
      this.index.set(entry.id, { entry, seq: this.ordered.length, parent: null, depth: 0, desk: ROOT_DESK_INDEX, mark: 0 });
      this.ordered.push(entry);
      if (isSeedDeskEntry(entry)) this.deskEntries++;
      if (entry.type === 'label') this.applyLabel(entry);
    }
    const named = (indexed: Indexed): Indexed | undefined => {
      const parentId = indexed.entry.parentId;
      return parentId === null || parentId === indexed.entry.id ? undefined : this.index.get(parentId);
    };
    // One walk per unsettled start, up to a settled entry; marks instead of sets: 100k entries
    // would otherwise allocate 100k sets.
    const path: Indexed[] = [];
    let walk = 0;
    for (const start of this.index.values()) {
      if (start.mark === SETTLED) continue;
      walk++;
      path.length = 0;
      for (let cursor: Indexed | undefined = start; cursor && cursor.mark !== SETTLED; cursor = named(cursor)) {
        if (cursor.mark === walk) {
          const loop = path.slice(path.indexOf(cursor));
          const first = loop.reduce((a, b) => (b.seq < a.seq ? b : a));
          first.parent = null;
          first.mark = SETTLED;
          break;
        }
        cursor.mark = walk;
        path.push(cursor);
      }
      for (const indexed of path) {
        if (indexed.mark === SETTLED) continue;
        indexed.parent = named(indexed) ?? null;
        indexed.mark = SETTLED;
      }
    }
    for (const indexed of this.index.values()) {
      this.kidsOf(indexed.parent?.entry.id ?? null).push(indexed.entry.id);
      const parentId = indexed.entry.parentId;
      if (parentId !== null && parentId !== indexed.entry.id && !this.index.has(parentId)) {
        const list = this.waiting.get(parentId);
        if (list) list.push(indexed.entry.id);
        else this.waiting.set(parentId, [indexed.entry.id]);
      }
    }
    for (const root of this.kidsOf(null)) {
      const indexed = this.index.get(root);
      if (indexed) this.rederive(indexed);
    }
  }

  /** Depth and desk index from the parent (a root when there is none). */
  private derive(indexed: Indexed, parent: Indexed | undefined): void {
    indexed.depth = parent ? parent.depth + 1 : 0;
    indexed.desk = deskIndexOf(indexed.entry, parent?.desk ?? ROOT_DESK_INDEX);
  }

  private kidsOf(parent: EntryId | null): EntryId[] {
    let list = this.kids.get(parent);
    if (!list) this.kids.set(parent, (list = []));
    return list;
  }

  /**
   * The entries that named `parent` before it was read move under it and their subtrees are
   * derived again. One whose subtree holds `parent` stays a root: linking it would close a loop.
   */
  private adoptWaiting(parent: Indexed): void {
    const children = this.waiting.get(parent.entry.id) ?? [];
    this.waiting.delete(parent.entry.id);
    const ancestors = new Set<string>();
    for (let cursor: Indexed | undefined = parent; cursor; cursor = this.parentOf(cursor)) ancestors.add(cursor.entry.id);
    const roots = this.kidsOf(null);
    for (const childId of children) {
      const child = this.index.get(childId);
      if (!child || ancestors.has(childId)) continue;
      roots.splice(roots.indexOf(childId), 1);
      child.parent = parent;
      this.kidsOf(parent.entry.id).push(childId);
      this.rederive(child);
    }
  }

  /** Derive a moved subtree again, parents before children, without recursion (deep chains). */
  private rederive(top: Indexed): void {
    const stack = [top];
    for (let next = stack.pop(); next; next = stack.pop()) {
      this.derive(next, this.parentOf(next));
      for (const kid of this.kids.get(next.entry.id) ?? []) {
        const indexed = this.index.get(kid);
        if (indexed) stack.push(indexed);
      }
    }
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

