import '$domain/zodSetup';
import * as z from 'zod/mini';
import type { DeepReadonly } from './deepReadonly';
import { GraphDeskSchema, GraphKindSchema, type GraphKind, type GraphRowView } from './graph';

/**
 * The session graph's rows as the worker sends them: column by column, numbers and flags in typed
 * arrays, strings in plain arrays, labels and desks only where a row has one. Why: as one object
 * per row, 100k rows were 31 MB to clone and 0.3 s to parse on the page's main thread, every key
 * repeated on every row; as columns the typed arrays clone as bytes and each string is checked once.
 * `rowsFromColumns` turns them back into the rows the view draws.
 */
const KINDS = GraphKindSchema.options;
const EDGES = ['none', 'drawn', 'elided'] as const;

// Bits of `flags`: kind (3 bits), edge (2 bits), then four booleans.
const EDGE_SHIFT = 3;
const UP = 1 << 5;
const DOWN = 1 << 6;
const ACTIVE = 1 << 7;
const LEAF = 1 << 8;
const HAS_PARENT = 1 << 9;

/**
 * Many strings as one, and where each ends: one string clones as bytes, and the page checks one
 * string instead of a hundred thousand. Each is read back as a slice (V8 shares the characters).
 */
const StringsSchema = z
  .object({ joined: z.string(), ends: z.instanceof(Int32Array) })
  .check(
    z.refine(({ joined, ends }) => {
      let previous = 0;
      for (const end of ends) {
        if (end < previous) return false;
        previous = end;
      }
      return previous === joined.length;
    }, 'the strings do not end where their text does'),
  );
type Strings = z.infer<typeof StringsSchema>;

function packStrings(values: readonly string[]): Strings {
  const ends = new Int32Array(values.length);
  let at = 0;
  values.forEach((value, index) => {
    at += value.length;
    ends[index] = at;
  });
  return { joined: values.join(''), ends };
}

function unpackStrings({ joined, ends }: DeepReadonly<Strings>): string[] {
  const out = new Array<string>(ends.length);
  let start = 0;
  for (let index = 0; index < ends.length; index++) {
    const end = ends[index] as number;
    out[index] = joined.slice(start, end);
    start = end;
  }
  return out;
}

export const GraphColumnsSchema = z
  .object({
    ids: StringsSchema,
    /** Rows without a parent (HAS_PARENT unset) have an empty string here. */
    parentIds: StringsSchema,
    text: StringsSchema,
    /** Per row: lane, parent lane, parent row (-1: none). */
    places: z.instanceof(Int32Array),
    flags: z.instanceof(Uint16Array),
    /** Row r's fork lanes are forkLanes[forkStart[r] … forkStart[r + 1]); the same for through. */
    forkStart: z.instanceof(Int32Array),
    forkLanes: z.instanceof(Int32Array),
    throughStart: z.instanceof(Int32Array),
    throughLanes: z.instanceof(Int32Array),
    labels: z.array(z.tuple([z.number(), z.string()])),
    desks: z.array(z.tuple([z.number(), GraphDeskSchema])),
  })
  .check(
    z.refine((columns) => {
      const count = columns.ids.ends.length;
      return (
        columns.parentIds.ends.length === count &&
        columns.text.ends.length === count &&
        columns.places.length === 3 * count &&
        columns.flags.length === count &&
        columns.forkStart.length === count + 1 &&
        columns.throughStart.length === count + 1 &&
        columns.forkStart[count] === columns.forkLanes.length &&
        columns.throughStart[count] === columns.throughLanes.length &&
        columns.flags.every((flag) => (flag & 7) < KINDS.length && ((flag >> EDGE_SHIFT) & 3) < EDGES.length) &&
        [...columns.labels, ...columns.desks].every(([row]) => Number.isInteger(row) && row >= 0 && row < count) &&
        columns.flags.every((flag) => flag < 1 << 10)
      );
    }, 'the graph columns do not agree in length, or name a kind, an edge or a row that does not exist'),
  );
export type GraphColumns = z.infer<typeof GraphColumnsSchema>;

type RowIn = DeepReadonly<GraphRowView>;

const KIND_INDEX = new Map<string, number>(KINDS.map((kind, index) => [kind, index]));
const EDGE_INDEX = new Map<string, number>(EDGES.map((edge, index) => [edge, index]));

/** Rows (what `graphLayout` builds) as columns. */
export function columnsOf(rows: readonly RowIn[]): GraphColumns {
  const count = rows.length;
  const places = new Int32Array(3 * count);
  const flags = new Uint16Array(count);
  const forkStart = new Int32Array(count + 1);
  const throughStart = new Int32Array(count + 1);
  let forks = 0;
  let throughs = 0;
  for (let index = 0; index < count; index++) {
    const row = rows[index] as RowIn;
    forks += row.forks.length;
    throughs += row.through.length;
    forkStart[index + 1] = forks;
    throughStart[index + 1] = throughs;
  }
  const forkLanes = new Int32Array(forks);
  const throughLanes = new Int32Array(throughs);
  const ids = new Array<string>(count);
  const parentIds = new Array<string>(count);
  const text = new Array<string>(count);
  const labels: [number, string][] = [];
  const desks: GraphColumns['desks'] = [];
  for (let index = 0; index < count; index++) {
    const row = rows[index] as RowIn;
    ids[index] = row.id;
    parentIds[index] = row.parentId ?? '';
    text[index] = row.text;
    places[3 * index] = row.lane;
    places[3 * index + 1] = row.parentLane ?? -1;
    places[3 * index + 2] = row.parentRow ?? -1;
    flags[index] =
      (KIND_INDEX.get(row.kind) as number) |
      ((EDGE_INDEX.get(row.edge) as number) << EDGE_SHIFT) |
      (row.up ? UP : 0) |
      (row.down ? DOWN : 0) |
      (row.onActivePath ? ACTIVE : 0) |
      (row.isLeaf ? LEAF : 0) |
      (row.parentId !== null ? HAS_PARENT : 0);
    forkLanes.set(row.forks, forkStart[index] as number);
    throughLanes.set(row.through, throughStart[index] as number);
    if (row.label !== null) labels.push([index, row.label]);
    if (row.desk !== null) desks.push([index, { ...row.desk, changes: row.desk.changes.map((chip) => ({ ...chip })) }]);
  }
  return { ids: packStrings(ids), parentIds: packStrings(parentIds), text: packStrings(text), places, flags, forkStart, forkLanes, throughStart, throughLanes, labels, desks };
}

const NO_LANES: number[] = [];

type DeskView = NonNullable<GraphRowView['desk']>;

/** A desk as the view's own value (one in about 25 rows has one). */
function deskAt(desks: ReadonlyMap<number, DeepReadonly<DeskView>>, index: number): DeskView | null {
  const desk = desks.get(index);
  return desk ? { ...desk, changes: desk.changes.map((chip) => ({ ...chip })) } : null;
}

/** The rows the view draws, from columns already parsed. */
export function rowsFromColumns(columns: DeepReadonly<GraphColumns>): GraphRowView[] {
  const labels = new Map(columns.labels);
  const desks = new Map(columns.desks);
  const lanes = (values: Int32Array, start: Int32Array, index: number): number[] => {
    const from = start[index] as number;
    const to = start[index + 1] as number;
    return from === to ? NO_LANES : Array.from(values.subarray(from, to));
  };
  const parentIds = unpackStrings(columns.parentIds);
  const text = unpackStrings(columns.text);
  return unpackStrings(columns.ids).map((id, index) => {
    const flag = columns.flags[index] as number;
    const parentLane = columns.places[3 * index + 1] as number;
    const parentRow = columns.places[3 * index + 2] as number;
    return {
      id,
      parentId: (flag & HAS_PARENT) !== 0 ? (parentIds[index] as string) : null,
      lane: columns.places[3 * index] as number,
      parentLane: parentLane < 0 ? null : parentLane,
      parentRow: parentRow < 0 ? null : parentRow,
      edge: EDGES[(flag >> EDGE_SHIFT) & 3] as GraphRowView['edge'],
      up: (flag & UP) !== 0,
      down: (flag & DOWN) !== 0,
      forks: lanes(columns.forkLanes, columns.forkStart, index),
      through: lanes(columns.throughLanes, columns.throughStart, index),
      kind: KINDS[flag & 7] as GraphKind,
      text: text[index] as string,
      onActivePath: (flag & ACTIVE) !== 0,
      isLeaf: (flag & LEAF) !== 0,
      label: labels.get(index) ?? null,
      desk: deskAt(desks, index),
    };
  });
}
