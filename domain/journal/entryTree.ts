import type { EntryId } from '../ids';
import { deskIndexOf, ROOT_DESK_INDEX, type DeskIndex } from '../reconstruct';
import { isSeedDeskEntry, type JournalEntry } from './entry';
import { JournalError } from './journalError';

/** Per-entry derived facts; rebuildable from the entries alone (see `insertAll`). */
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

/**
 * A session's entries as the host's tree: append order, each entry's resolved parent, children,
 * depth and desk index. It holds no leaf and no labels; `SessionJournal` (journal.ts) does, and
 * answers for the host's operations on top of it.
 */
export class EntryTree {
  private readonly ordered: JournalEntry[] = [];
  private readonly index = new Map<string, Indexed>();
  private readonly kids = new Map<string | null, EntryId[]>();
  /** Roots waiting for a parent named on a later line: parent id → children, in append order. */
  private readonly waiting = new Map<string, EntryId[]>();
  private deskEntries = 0;

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

  /** How many seed desk entries the tree holds, all branches. */
  get seedDeskEntryCount(): number {
    return this.deskEntries;
  }

  /**
   * Every walk follows the resolved parent, never `entry.parentId` itself: a self-parent or a loop
   * of parents is a root there (the host's getBranch would loop forever), so no walk can.
   */
  private parentOf(indexed: Indexed): Indexed | undefined {
    return indexed.parent ?? undefined;
  }

  /** The last `limit` entries of the branch ending at `fromId`, root-most first: O(limit), not O(depth). */
  branchTail(limit: number, fromId: EntryId | null): JournalEntry[] {
    const tail: JournalEntry[] = [];
    let cursor = fromId === null ? undefined : this.index.get(fromId);
    while (cursor && tail.length < limit) {
      tail.push(cursor.entry);
      cursor = this.parentOf(cursor);
    }
    return tail.reverse();
  }

  /** The parent as every walk sees it: null for a root or an orphan (see parentOf). */
  parentIdOf(id: EntryId): EntryId | null {
    const indexed = this.index.get(id);
    return indexed ? (this.parentOf(indexed)?.entry.id ?? null) : null;
  }

  /** The index of the branch ending at `at`; the root's for null or an unknown id. */
  deskIndexAt(at: EntryId | null): DeskIndex {
    return (at === null ? undefined : this.index.get(at)?.desk) ?? ROOT_DESK_INDEX;
  }

  /** One entry, linked to its parent if known, and adopting the entries that named it before it came. */
  insert(entry: JournalEntry): void {
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
  }

  /**
   * The whole file at once, in O(n) however its parents are ordered (linking late parents one
   * insert at a time would derive a reversed chain n times): index every entry, resolve every
   * parent (a loop is cut at its first entry, which stays a root), then derive parents first.
   */
  insertAll(entries: Iterable<JournalEntry>): void {
    for (const entry of entries) {
      if (this.index.has(entry.id)) throw new JournalError(`Duplicate entry id ${entry.id}`);
      this.index.set(entry.id, { entry, seq: this.ordered.length, parent: null, depth: 0, desk: ROOT_DESK_INDEX, mark: 0 });
      this.ordered.push(entry);
      if (isSeedDeskEntry(entry)) this.deskEntries++;
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
}
