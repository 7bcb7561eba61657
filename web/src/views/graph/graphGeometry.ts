/**
 * What the gutter draws for a window of rows, from the rows alone (the layout put everything a row
 * needs on the row): SVG path data grouped by style, so a window of any size is a handful of
 * `<path>` elements (a scroll rewrites strings, it does not build SVG nodes per row). Pure, so the
 * drawing rules are tested without a DOM.
 */
import type { GraphKind, GraphRowView } from '../../protocol/graph';

export const ROW_HEIGHT = 30;
export const LANE_WIDTH = 16;
const PAD = 4;

export const laneX = (lane: number): number => PAD + lane * LANE_WIDTH + LANE_WIDTH / 2;

export function gutterWidth(maxLane: number): number {
  return PAD * 2 + (maxLane + 1) * LANE_WIDTH;
}

type StripRow = Pick<GraphRowView, 'lane' | 'up' | 'down' | 'forks' | 'through' | 'edge'>;
type NodeRow = StripRow & Pick<GraphRowView, 'kind' | 'onActivePath' | 'isLeaf' | 'desk'>;

export interface Strip {
  readonly strong: string;
  readonly muted: string;
  /** A short dashed stub above a node whose edge could not be drawn (no free lane). */
  readonly elided: string;
}

/**
 * One row's lines, its top at `top`. `activeLane0`: the graph has an active path, so lane 0 is it
 * and is drawn strong; every other lane (and lane 0 when there is no active path) is muted. Forks
 * always end in another lane than the active path's, so they are muted.
 */
export function stripOf(row: StripRow, activeLane0: boolean, top = 0): Strip {
  const bottom = top + ROW_HEIGHT;
  const cy = top + ROW_HEIGHT / 2;
  const x = laneX(row.lane);
  let strong = '';
  let muted = '';
  const add = (lane: number, d: string) => {
    if (activeLane0 && lane === 0) strong += d;
    else muted += d;
  };
  for (const lane of row.through) add(lane, `M${laneX(lane)} ${top}V${bottom}`);
  if (row.up) add(row.lane, `M${x} ${top}V${cy}`);
  if (row.down) add(row.lane, `M${x} ${cy}V${bottom}`);
  for (const lane of row.forks) {
    const fx = laneX(lane);
    muted += `M${x} ${cy}C${x} ${bottom} ${fx} ${cy} ${fx} ${bottom}`;
  }
  return { strong, muted, elided: row.edge === 'elided' ? `M${x} ${top}V${cy - 6}` : '' };
}

/** Node fills: `solid` is filled with the line colour, `hollow` with the panel colour. */
export type NodeStyle = 'solid-active' | 'solid-muted' | 'hollow-active' | 'hollow-muted' | 'corrupt';

const circle = (x: number, y: number, r: number) => `M${x - r} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;
const square = (x: number, y: number, r: number) => `M${x - r} ${y - r}h${2 * r}v${2 * r}h${-2 * r}Z`;
const diamond = (x: number, y: number, r: number) => `M${x} ${y - r}L${x + r} ${y}L${x} ${y + r}L${x - r} ${y}Z`;
const tag = (x: number, y: number) => `M${x - 4.5} ${y - 4}H${x + 1.5}L${x + 5} ${y}L${x + 1.5} ${y + 4}H${x - 4.5}Z`;

/** Shape by kind (so kinds differ without colour); filled or hollow by kind too. */
const SHAPES: Record<GraphKind, { path: (x: number, y: number) => string; hollow: boolean }> = {
  user: { path: (x, y) => circle(x, y, 4.5), hollow: false },
  assistant: { path: (x, y) => circle(x, y, 4.5), hollow: true },
  'tool-result': { path: (x, y) => square(x, y, 4), hollow: false },
  'seed-desk': { path: (x, y) => diamond(x, y, 6.5), hollow: false },
  label: { path: tag, hollow: false },
  extension: { path: (x, y) => square(x, y, 4), hollow: true },
  other: { path: (x, y) => circle(x, y, 2.5), hollow: false },
};

export interface Gutter extends Strip {
  readonly nodes: Readonly<Record<NodeStyle, string>>;
  /** The cross inside a corrupt snapshot's diamond. */
  readonly cross: string;
  readonly leafRing: string;
}

/** Paths for rows `from` (inclusive) to `to` (exclusive); y = 0 is the top of row `from`. */
export function gutterPaths(rows: readonly NodeRow[], from: number, to: number, activeLane0: boolean): Gutter {
  let strong = '';
  let muted = '';
  let elided = '';
  let cross = '';
  let leafRing = '';
  const nodes: Record<NodeStyle, string> = { 'solid-active': '', 'solid-muted': '', 'hollow-active': '', 'hollow-muted': '', corrupt: '' };
  for (let index = from; index < to; index++) {
    const row = rows[index];
    if (!row) break;
    const top = (index - from) * ROW_HEIGHT;
    const strip = stripOf(row, activeLane0, top);
    strong += strip.strong;
    muted += strip.muted;
    elided += strip.elided;
    const x = laneX(row.lane);
    const y = top + ROW_HEIGHT / 2;
    const shape = SHAPES[row.kind];
    if (row.desk?.corrupt) {
      nodes.corrupt += shape.path(x, y);
      cross += `M${x - 3} ${y - 3}L${x + 3} ${y + 3}M${x + 3} ${y - 3}L${x - 3} ${y + 3}`;
    } else {
      nodes[`${shape.hollow ? 'hollow' : 'solid'}-${row.onActivePath ? 'active' : 'muted'}`] += shape.path(x, y);
    }
    if (row.isLeaf) leafRing += circle(x, y, 9);
  }
  return { strong, muted, elided, nodes, cross, leafRing };
}
