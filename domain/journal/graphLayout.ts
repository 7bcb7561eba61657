/**
 * The session as a commit graph (gitk, the graph in VS Code's source control view): one row per
 * shown entry in append order, so time runs top to bottom and a parent is always above its
 * children; each branch in a lane (`graphLanes.ts` says how lanes are given out).
 *
 * Every row carries what the renderer needs to draw its own strip without looking at other rows:
 * `up` (an edge arrives in its lane from above), `down` (its lane continues below), `forks` (lanes
 * whose edges bend out of this row) and `through` (lanes whose edges pass by).
 *
 * Filters collapse hidden entries into the edge: a row's parent is its nearest shown ancestor.
 *
 * O(n · MAX_LANES) time, iterative throughout: a 100k-deep chain does not touch the call stack.
 * Desk facts come from the journal's index (no parsing here). Runs in the worker (treeLayout's
 * display text imports zod).
 */
import type { EntryId } from '../ids';
import { isSeedDeskEntry, messageRole, type JournalEntry } from './entry';
import { graphDeskOf } from './graphDesk';
import type { GraphKind, GraphRow } from './graphRow';
import { assignLanes, NO_LANES } from './graphLanes';
import type { SessionJournal } from './journal';
import { entryDisplayText, type TreeFilter } from './treeLayout';

export interface GraphOptions {
  /** Display text longer than this is clipped (the worker's row limit). */
  readonly textLimit?: number;
}

export function graphKindOf(entry: JournalEntry): GraphKind {
  if (isSeedDeskEntry(entry)) return 'seed-desk';
  switch (entry.type) {
    case 'message': {
      const role = messageRole(entry);
      if (role === 'user') return 'user';
      if (role === 'assistant') return 'assistant';
      if (role === 'toolResult') return 'tool-result';
      return 'other';
    }
    case 'label':
      return 'label';
    case 'custom':
    case 'custom_message':
      return 'extension';
    default:
      return 'other';
  }
}

function shownBy(filter: TreeFilter, entry: JournalEntry, kind: GraphKind): boolean {
  if (filter === 'all') return true;
  if (filter === 'seed-desk') return kind === 'seed-desk';
  return kind === 'user' || kind === 'assistant' || kind === 'tool-result' || entry.type === 'custom_message';
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${(text.length - limit).toLocaleString('en')} more characters)`;
}

/**
 * Seqs in append order, except that an entry whose resolved parent comes later is emitted right
 * after that parent (with everything waiting on it, depth-first, append order kept): a parent is
 * always above its children. Iterative; O(n).
 */
function parentsFirst(journal: SessionJournal, entries: readonly JournalEntry[]): { order: number[]; parentSeq: Int32Array } {
  const n = entries.length;
  const parentSeq = new Int32Array(n);
  for (let seq = 0; seq < n; seq++) {
    const parentId = journal.parentIdOf((entries[seq] as JournalEntry).id);
    parentSeq[seq] = parentId === null ? -1 : (journal.seqOf(parentId) ?? -1);
  }
  const emitted = new Uint8Array(n);
  const waiting = new Map<number, number[]>();
  const order: number[] = [];
  const stack: number[] = [];
  for (let seq = 0; seq < n; seq++) {
    const parent = parentSeq[seq] as number;
    if (parent >= 0 && !emitted[parent]) {
      const list = waiting.get(parent);
      if (list) list.push(seq);
      else waiting.set(parent, [seq]);
      continue;
    }
    stack.push(seq);
    while (stack.length > 0) {
      const next = stack.pop() as number;
      emitted[next] = 1;
      order.push(next);
      const kids = waiting.get(next);
      if (!kids) continue;
      waiting.delete(next);
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k] as number);
    }
  }
  return { order, parentSeq };
}

type MutableRow = { -readonly [K in keyof GraphRow]: GraphRow[K] };

/**
 * The graph rows for the branch ending at `leafId` (the journal's leaf by default; an unknown or
 * null leaf gives no active path) under `filter`. The leaf is always shown, as in the tree.
 */
export function graphLayout(journal: SessionJournal, leafId: EntryId | null = journal.leafId, filter: TreeFilter = 'all', options: GraphOptions = {}): GraphRow[] {
  const textLimit = options.textLimit ?? 200;
  const entries = journal.entries();
  const active = new Set<string>();
  for (const entry of journal.branch(leafId)) active.add(entry.id);
  const leaf = leafId !== null && active.has(leafId) ? leafId : null;

  // In time order with parents first: which entries show, and each shown entry's nearest
  // shown ancestor. The order is append order, except that an entry whose parent was stored on a
  // later line waits for it (the journal links such a parent when it arrives).
  const n = entries.length;
  const { order, parentSeq } = parentsFirst(journal, entries);
  /** Nearest shown ancestor (or self when shown), as a row index, by seq; -1 for none. */
  const shownAt = new Int32Array(n).fill(-1);
  const rows: MutableRow[] = [];
  const parentRows: number[] = [];
  for (const seq of order) {
    const entry = entries[seq] as JournalEntry;
    const parent = parentSeq[seq] as number;
    const above = parent >= 0 ? (shownAt[parent] as number) : -1;
    const kind = graphKindOf(entry);
    const isLeaf = entry.id === leaf;
    if (!isLeaf && !shownBy(filter, entry, kind)) {
      shownAt[seq] = above;
      continue;
    }
    const row = rows.length;
    shownAt[seq] = row;
    parentRows.push(above);
    rows.push({
      id: entry.id,
      parentId: above >= 0 ? (rows[above] as MutableRow).id : null,
      lane: 0,
      parentLane: null,
      parentRow: above >= 0 ? above : null,
      edge: above >= 0 ? 'drawn' : 'none',
      up: false,
      down: false,
      forks: NO_LANES,
      through: NO_LANES,
      kind,
      text: clip(entryDisplayText(journal, entry), textLimit),
      onActivePath: active.has(entry.id),
      isLeaf,
      label: journal.labelOf(entry.id) ?? null,
      desk: kind === 'seed-desk' ? graphDeskOf(journal, entry) : null,
    });
  }

  // Then, in row order, each row's lane and the edges that cross it.
  assignLanes(rows, parentRows, leaf !== null);
  return rows;
}
