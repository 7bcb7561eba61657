/**
 * The session as a commit graph (gitk, the graph in VS Code's source control view): one row per
 * shown entry in append order, so time runs top to bottom and a parent is always above its
 * children; each branch in a lane (a column, 0 = leftmost).
 *
 * Lanes:
 * - the active path (root → leaf) owns lane 0 whenever there is one, so the branch you are on is a
 *   straight line and nothing else is ever drawn in lane 0;
 * - a node's first shown child continues in its lane; every other child forks: its edge bends out
 *   of the parent's row (lower half) into the lowest free lane and runs straight down to the child.
 *   Forking at the parent, not at the child, is what makes the fork point readable;
 * - a lane is taken from the parent's row until the child's row, and is freed once the last entry
 *   of its chain has been drawn, so a later branch reuses it;
 * - at most `MAX_LANES` lanes are drawn: a branch that finds none free goes to the overflow column
 *   (`lane === MAX_LANES`) and its edge is `elided` (the row still names its parent). It keeps the
 *   per-row drawing data bounded (a root with 100k children would otherwise need 100k lanes).
 *
 * Every row carries what the renderer needs to draw its own strip without looking at other rows:
 * `up` (an edge arrives in its lane from above), `down` (its lane continues below), `forks` (lanes
 * whose edges bend out of this row) and `through` (lanes whose edges pass by).
 *
 * Filters collapse hidden entries into the edge: a row's parent is its nearest shown ancestor.
 *
 * O(n · MAX_LANES) time (a constant factor; lane picks use a heap), iterative throughout: a
 * 100k-deep chain does not touch the call stack. Desk facts come from the journal's index (no
 * parsing here). Runs in the worker (treeLayout's display text imports zod).
 */
import { FIXTURE_IDS } from '../fixture';
import type { EntryId } from '../ids';
import { reservedOf, type Snapshot } from '../snapshot';
import { isSeedDeskEntry, messageRole, type JournalEntry } from './entry';
import type { SessionJournal } from './journal';
import { entryDisplayText, type TreeFilter } from './treeLayout';

/** Lanes drawn before the overflow column. Realistic sessions stay far below it. */
export const MAX_LANES = 24;

export type GraphKind = 'user' | 'assistant' | 'tool-result' | 'seed-desk' | 'label' | 'extension' | 'other';

/**
 * One change as shown: `text` is `basil-genovese +2`, `bean-scarlet −1` (a real minus, U+2212),
 * `agent on` / `agent off` or `no change`; `tone` says which, so nothing reads the text back.
 */
export interface DeskChip {
  readonly text: string;
  readonly tone: 'added' | 'removed' | 'agent' | 'none';
}

/** What a seed desk entry did, against the desk at its parent. */
export interface GraphDesk {
  /** The entry id its revision (`<sessionId>:<entryId>`) names: the entry itself. */
  readonly revisionEntryId: EntryId;
  /** What changed, in fixture order, then the agent switch; `no change` when the desks are equal. */
  readonly changes: readonly DeskChip[];
  /** This entry's own snapshot fails validation. */
  readonly corrupt: boolean;
  /** Why it fails (only when `corrupt`). */
  readonly problem: string | null;
  /**
   * A seed desk entry above on the branch is corrupt, so the branch stays corrupt whatever this
   * entry holds: its id. `changes` is then empty (there is no valid desk to compare with).
   */
  readonly corruptAbove: EntryId | null;
}

export interface GraphRow {
  readonly id: EntryId;
  /** The nearest SHOWN ancestor (hidden entries collapse into the edge); null for a root or orphan. */
  readonly parentId: EntryId | null;
  /** Column of the node, 0 = leftmost; `MAX_LANES` is the overflow column. */
  readonly lane: number;
  readonly parentLane: number | null;
  /** Row index of `parentId`, always smaller than this row's index. */
  readonly parentRow: number | null;
  /** How the edge to the parent is drawn: none (a root), drawn, or elided (no free lane). */
  readonly edge: 'none' | 'drawn' | 'elided';
  /** An edge enters this row's lane from the top and ends at the node. */
  readonly up: boolean;
  /** This row's lane continues below the node (its first child is in the same lane). */
  readonly down: boolean;
  /** Lanes of child edges that bend out of this row (in its lower half), ascending. */
  readonly forks: readonly number[];
  /** Lanes whose edges pass this row top to bottom without a node here, ascending. */
  readonly through: readonly number[];
  readonly kind: GraphKind;
  /** The entry's display text (as the tree's), clipped to `textLimit`. */
  readonly text: string;
  readonly onActivePath: boolean;
  readonly isLeaf: boolean;
  /** The global label on this entry, or null. */
  readonly label: string | null;
  /** Only on seed desk rows. */
  readonly desk: GraphDesk | null;
  // No ARIA level or position here: the graph is a flat tree in time order (level 1, position =
  // row + 1, set size = row count), which the view derives. Carried on every row, the set size
  // would change every row at each append, and an append could no longer resend only its rows.
}

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

const MINUS = '\u2212';

/** Chips for what changed from `before` to `after`, in fixture order, then the agent switch. */
export function deskChanges(before: Snapshot, after: Snapshot): DeskChip[] {
  const chips: DeskChip[] = [];
  for (const id of FIXTURE_IDS) {
    const delta = reservedOf(after, id) - reservedOf(before, id);
    if (delta > 0) chips.push({ text: `${id} +${delta}`, tone: 'added' });
    else if (delta < 0) chips.push({ text: `${id} ${MINUS}${-delta}`, tone: 'removed' });
  }
  if (after.agentEnabled !== before.agentEnabled) chips.push({ text: `agent ${after.agentEnabled ? 'on' : 'off'}`, tone: 'agent' });
  return chips.length > 0 ? chips : [{ text: 'no change', tone: 'none' }];
}

function deskOf(journal: SessionJournal, entry: JournalEntry): GraphDesk {
  const base = { revisionEntryId: entry.id, changes: [], corrupt: false, problem: null, corruptAbove: null };
  // The journal's desk index already validated every snapshot: O(1) per entry, no parse here.
  const after = journal.state(entry.id);
  if (!after.ok) {
    return after.corruptEntryId === entry.id ? { ...base, corrupt: true, problem: after.problem } : { ...base, corruptAbove: after.corruptEntryId };
  }
  const before = journal.state(journal.parentIdOf(entry.id));
  return { ...base, changes: before.ok ? deskChanges(before.snapshot, after.snapshot) : [] };
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${(text.length - limit).toLocaleString('en')} more characters)`;
}

/** The lowest free lane first; lanes are small integers, so a binary heap over numbers. */
class LanePool {
  private readonly heap: number[] = [];
  private next: number;

  constructor(first: number) {
    this.next = first;
  }

  /** The lowest free lane, or null when all `MAX_LANES` are taken. */
  take(): number | null {
    const heap = this.heap;
    if (heap.length === 0) return this.next < MAX_LANES ? this.next++ : null;
    const top = heap[0] as number;
    const last = heap.pop() as number;
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && (heap[l] as number) < (heap[m] as number)) m = l;
        if (r < heap.length && (heap[r] as number) < (heap[m] as number)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m] as number, heap[i] as number];
        i = m;
      }
    }
    return top;
  }

  give(lane: number): void {
    const heap = this.heap;
    heap.push(lane);
    for (let i = heap.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if ((heap[p] as number) <= (heap[i] as number)) break;
      [heap[i], heap[p]] = [heap[p] as number, heap[i] as number];
      i = p;
    }
  }
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

const NONE: readonly number[] = Object.freeze([]);

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

  // Pass 1, in time order with parents first: which entries show, and each shown entry's nearest
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
      forks: NONE,
      through: NONE,
      kind,
      text: clip(entryDisplayText(journal, entry), textLimit),
      onActivePath: active.has(entry.id),
      isLeaf,
      label: journal.labelOf(entry.id) ?? null,
      desk: kind === 'seed-desk' ? deskOf(journal, entry) : null,
    });
  }

  // Shown children per row, in row order (a CSR layout: no array per row).
  const total = rows.length;
  const childStart = new Int32Array(total + 1);
  for (const parent of parentRows) if (parent >= 0) childStart[parent + 1] = (childStart[parent + 1] as number) + 1;
  for (let r = 0; r < total; r++) childStart[r + 1] = (childStart[r + 1] as number) + (childStart[r] as number);
  const childList = new Int32Array(childStart[total] as number);
  const fill = childStart.slice(0, total);
  for (let r = 0; r < total; r++) {
    const parent = parentRows[r] as number;
    if (parent < 0) continue;
    const at = fill[parent] as number;
    childList[at] = r;
    fill[parent] = at + 1;
  }

  // Pass 2, row order: lanes. `laneOf[r]` is set when a parent reserves a lane for row r's edge.
  const hasActive = leaf !== null;
  const pool = new LanePool(hasActive ? 1 : 0);
  const laneOf = new Int32Array(total).fill(-1);
  /** Lanes holding an edge that has left its parent's row and not reached its child yet. */
  const open = new Uint8Array(MAX_LANES);
  const take = (): number => pool.take() ?? MAX_LANES;
  let through: readonly number[] = NONE;
  let openChanged = false;
  for (let r = 0; r < total; r++) {
    const row = rows[r] as MutableRow;
    let lane = laneOf[r] as number;
    if (lane >= 0 && lane < MAX_LANES) {
      open[lane] = 0;
      openChanged = true;
      row.up = true;
    } else {
      // A root or orphan has no edge, and an elided edge is not drawn: any free lane will do
      // (one may have been freed since the parent's row). The active root takes lane 0.
      if (lane === MAX_LANES) row.edge = 'elided';
      lane = row.onActivePath ? 0 : take();
    }
    row.lane = lane;
    if (row.parentRow !== null) row.parentLane = (rows[row.parentRow] as MutableRow).lane;

    // Consecutive rows mostly see the same open lanes: share the array (10k rows, few lanes).
    if (openChanged) {
      const list: number[] = [];
      for (let l = 0; l < MAX_LANES; l++) if (open[l]) list.push(l);
      through = list.length > 0 ? list : NONE;
      openChanged = false;
    }
    row.through = through;

    // Children: the one that continues this lane, then forks in row order.
    const from = childStart[r] as number;
    const to = childStart[r + 1] as number;
    let continuation = -1;
    if (lane < MAX_LANES) {
      for (let k = from; k < to; k++) {
        const child = childList[k] as number;
        // Lane 0 belongs to the active path: only the active child may continue it.
        if (!hasActive || lane !== 0 || (rows[child] as MutableRow).onActivePath) {
          continuation = child;
          break;
        }
      }
    }
    let forks: number[] | null = null;
    for (let k = from; k < to; k++) {
      const child = childList[k] as number;
      if (child === continuation) {
        laneOf[child] = lane;
        open[lane] = 1;
        openChanged = true;
        row.down = true;
      } else if ((rows[child] as MutableRow).onActivePath) {
        // Unreachable (an active child's parent is active, so in lane 0 and continued above);
        // kept so lane 0 stays the active path's even if that ever changes.
        laneOf[child] = 0;
        open[0] = 1;
        openChanged = true;
        (forks ??= []).push(0);
      } else {
        const forkLane = take();
        laneOf[child] = forkLane;
        if (forkLane < MAX_LANES) {
          open[forkLane] = 1;
          openChanged = true;
          (forks ??= []).push(forkLane);
        }
      }
    }
    row.forks = forks ? forks.sort((a, b) => a - b) : NONE;
    // The chain ends here: its lane is free for rows below. Lane 0 stays the active path's.
    if (continuation < 0 && lane < MAX_LANES && !(hasActive && lane === 0)) pool.give(lane);
  }
  return rows;
}
