/**
 * Keyboard moves in the session graph, kept out of the component so they can be tested without a
 * DOM. Rows are in time order; a move returns the index of the row to select.
 */
export interface LanedRow {
  readonly lane: number;
}

export type GraphMove = 'up' | 'down' | 'left' | 'right' | 'home' | 'end' | 'page-up' | 'page-down';

export const KEY_MOVES: Readonly<Record<string, GraphMove>> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
  Home: 'home',
  End: 'end',
  PageUp: 'page-up',
  PageDown: 'page-down',
};

/**
 * The row nearest in time to `from` in the nearest lane on one side that holds any row (the lane
 * next door may be empty around here but used further down). Ties go to the earlier row, towards
 * the fork. Returns `from` when there is no lane on that side.
 */
export function nearestInNextLane(rows: readonly LanedRow[], from: number, direction: -1 | 1): number {
  const here = rows[from];
  if (!here) return from;
  let best = -1;
  let bestLane = -1;
  let bestDistance = Number.POSITIVE_INFINITY;
  // One pass: the closest lane on that side wins, then the closest row in it.
  for (let index = 0; index < rows.length; index++) {
    const lane = (rows[index] as LanedRow).lane;
    const step = (lane - here.lane) * direction;
    if (step <= 0) continue;
    const distance = Math.abs(index - from);
    const laneGap = bestLane < 0 ? Number.POSITIVE_INFINITY : (bestLane - here.lane) * direction;
    if (step < laneGap || (step === laneGap && distance < bestDistance)) {
      best = index;
      bestLane = lane;
      bestDistance = distance;
    }
  }
  return best < 0 ? from : best;
}

/** The row a move lands on, clamped to the rows; `page` is how many rows a page holds. */
export function moveFrom(rows: readonly LanedRow[], from: number, move: GraphMove, page: number): number {
  const last = rows.length - 1;
  const clamp = (index: number) => Math.max(0, Math.min(last, index));
  switch (move) {
    case 'up': return clamp(from - 1);
    case 'down': return clamp(from + 1);
    case 'page-up': return clamp(from - Math.max(1, page));
    case 'page-down': return clamp(from + Math.max(1, page));
    case 'home': return 0;
    case 'end': return Math.max(0, last);
    case 'left': return nearestInNextLane(rows, from, -1);
    case 'right': return nearestInNextLane(rows, from, 1);
  }
}
