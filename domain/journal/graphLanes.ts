/**
 * The session graph's lanes (columns, 0 = leftmost) and the edges drawn in them, for rows in
 * graph order (`graphLayout.ts` builds the rows):
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
 * O(n · MAX_LANES) time (a constant factor; lane picks use a heap), no recursion.
 */
import type { GraphRow } from './graphRow';

/** Lanes drawn before the overflow column. Realistic sessions stay far below it. */
export const MAX_LANES = 24;

/** The empty lane list, shared by every row that has none. */
export const NO_LANES: readonly number[] = Object.freeze([]);

/** The fields of a row the lane pass sets; it reads `parentRow` and `onActivePath`. */
type LaneField = 'lane' | 'parentLane' | 'edge' | 'up' | 'down' | 'forks' | 'through';
type LaneRow = { -readonly [K in LaneField]: GraphRow[K] } & Pick<GraphRow, 'parentRow' | 'onActivePath'>;

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
 * Sets every row's lane fields, in row order. `parentRows[r]` is row r's parent row (-1 for none),
 * always smaller than r; `hasActive` says whether there is an active path to keep in lane 0.
 */
export function assignLanes(rows: readonly LaneRow[], parentRows: readonly number[], hasActive: boolean): void {
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

  // Row order: `laneOf[r]` is set when a parent reserves a lane for row r's edge.
  const pool = new LanePool(hasActive ? 1 : 0);
  const laneOf = new Int32Array(total).fill(-1);
  /** Lanes holding an edge that has left its parent's row and not reached its child yet. */
  const open = new Uint8Array(MAX_LANES);
  const take = (): number => pool.take() ?? MAX_LANES;
  let through: readonly number[] = NO_LANES;
  let openChanged = false;
  for (let r = 0; r < total; r++) {
    const row = rows[r] as LaneRow;
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
    if (row.parentRow !== null) row.parentLane = (rows[row.parentRow] as LaneRow).lane;

    // Consecutive rows mostly see the same open lanes: share the array (10k rows, few lanes).
    if (openChanged) {
      const list: number[] = [];
      for (let l = 0; l < MAX_LANES; l++) if (open[l]) list.push(l);
      through = list.length > 0 ? list : NO_LANES;
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
        if (!hasActive || lane !== 0 || (rows[child] as LaneRow).onActivePath) {
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
      } else if ((rows[child] as LaneRow).onActivePath) {
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
    row.forks = forks ? forks.sort((a, b) => a - b) : NO_LANES;
    // The chain ends here: its lane is free for rows below. Lane 0 stays the active path's.
    if (continuation < 0 && lane < MAX_LANES && !(hasActive && lane === 0)) pool.give(lane);
  }
}
