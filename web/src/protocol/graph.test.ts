import { describe, expect, it } from 'vitest';
import { asEntryId, asSessionId } from '$domain/ids';
import { customEntry, sessionHeader, userMessageEntry } from '$domain/journal/entry';
import { graphLayout } from '$domain/journal/graphLayout';
import { SessionJournal } from '$domain/journal/journal';
import { SEED_DESK_CUSTOM_TYPE } from '$domain/snapshot';
import { GraphRowSchema, type GraphRowView } from './graph';

// The page parses what the worker sends: a layout the schema rejected (or trimmed) would blank the graph.

describe('GraphRowSchema', () => {
  it('accepts every row graphLayout builds, unchanged', () => {
    const place = (id: string, parentId: string | null) => ({ id: asEntryId(id), parentId: parentId === null ? null : asEntryId(parentId), timestamp: '2026-05-01T12:00:00.000Z' });
    const entries = [
      userMessageEntry('hello', place('a', null)),
      customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: true, quantities: { 'basil-genovese': 2 } }, place('d', 'a')),
      customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: true, quantities: { tomato: 1 } }, place('bad', 'd')),
      userMessageEntry('sibling', place('b', 'a')),
    ];
    const journal = SessionJournal.fromEntries(sessionHeader(asSessionId('s'), '2026-05-01T12:00:00.000Z', '/'), entries);
    journal.moveLeaf(asEntryId('bad'));
    const rows = graphLayout(journal);
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
