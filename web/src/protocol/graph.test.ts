import { describe, expect, it } from 'vitest';
import { GraphRowSchema, type GraphRowView } from './graph';
import { sampleGraphRows } from './graphSample.testkit';

// The page parses what the worker sends: a layout the schema rejected (or trimmed) would blank the graph.

describe('GraphRowSchema', () => {
  it('accepts every row graphLayout builds, unchanged', () => {
    const rows = sampleGraphRows();
    expect(rows.some((row) => row.desk?.corrupt) && rows.some((row) => row.forks.length > 0)).toBe(true);
    for (const row of rows) expect(GraphRowSchema.parse(structuredClone(row))).toEqual(row);
  });

  it('rejects a row without its lane or with an unknown kind', () => {
    const { lane: _lane, ...laneless } = sample();
    expect(GraphRowSchema.safeParse(laneless).success).toBe(false);
    expect(GraphRowSchema.safeParse({ ...sample(), kind: 'script' }).success).toBe(false);
  });
});

function sample(): GraphRowView {
  return {
    id: 'a', parentId: null, lane: 0, parentLane: null, parentRow: null, edge: 'none', up: false, down: false, forks: [], through: [],
    kind: 'user', text: 'hello', onActivePath: true, isLeaf: true, label: null, desk: null,
  };
}
