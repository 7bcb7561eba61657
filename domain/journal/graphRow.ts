import type { EntryId } from '../ids';
import type { GraphDesk } from './graphDesk';

/** One row of the session graph, as the worker lays it out and the page draws it. */

/** What a row of the session graph shows, declared once (the protocol's schema is built from it). */
export const GRAPH_KINDS = ['user', 'assistant', 'tool-result', 'seed-desk', 'label', 'extension', 'other'] as const;
export type GraphKind = (typeof GRAPH_KINDS)[number];

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
