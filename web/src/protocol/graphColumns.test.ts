import { describe, expect, it } from 'vitest';
import { columnsOf, GraphColumnsSchema, rowsFromColumns } from './graphColumns';
import { sampleGraphRows } from './graphSample.testkit';

// The graph travels as columns; the page must get back exactly the rows the worker laid out.

describe('graph columns', () => {
  it('carry every row graphLayout builds through a message and back, unchanged', () => {
    const rows = sampleGraphRows();
    // The layout exercises what the columns must carry: forks, lanes passing through, a label, desks, a corrupt one.
    expect(rows.some((row) => row.forks.length > 0)).toBe(true);
    expect(rows.some((row) => row.through.length > 0)).toBe(true);
    expect(rows.some((row) => row.label !== null)).toBe(true);
    expect(rows.some((row) => row.desk?.corrupt)).toBe(true);
    const parsed = GraphColumnsSchema.parse(structuredClone(columnsOf(rows)));
    expect(rowsFromColumns(parsed)).toEqual(rows);
  });

  it('carry no rows as empty columns', () => {
    expect(rowsFromColumns(GraphColumnsSchema.parse(columnsOf([])))).toEqual([]);
  });

  it('are refused when they disagree in length or name a row, a kind or an edge that does not exist', () => {
    const columns = columnsOf(sampleGraphRows());
    expect(GraphColumnsSchema.safeParse({ ...columns, text: { ...columns.text, ends: columns.text.ends.subarray(1) } }).success).toBe(false);
    expect(GraphColumnsSchema.safeParse({ ...columns, ids: { ...columns.ids, joined: `${columns.ids.joined}x` } }).success).toBe(false);
    expect(GraphColumnsSchema.safeParse({ ...columns, places: columns.places.subarray(3) }).success).toBe(false);
    expect(GraphColumnsSchema.safeParse({ ...columns, labels: [[columns.ids.ends.length, 'beyond the last row']] }).success).toBe(false);
    const flags = Uint16Array.from(columns.flags);
    flags[0] = 7;
    expect(GraphColumnsSchema.safeParse({ ...columns, flags }).success).toBe(false);
    const edges = Uint16Array.from(columns.flags);
    edges[0] = (edges[0] as number) | (3 << 3);
    expect(GraphColumnsSchema.safeParse({ ...columns, flags: edges }).success).toBe(false);
    expect(GraphColumnsSchema.safeParse({ ...columns, places: Array.from(columns.places) }).success).toBe(false);
  });
});
