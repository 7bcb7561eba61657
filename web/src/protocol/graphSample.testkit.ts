import { asEntryId, asSessionId } from '$domain/ids';
import { customEntry, sessionHeader, userMessageEntry } from '$domain/journal/entry';
import { graphLayout } from '$domain/journal/graphLayout';
import type { GraphRow } from '$domain/journal/graphRow';
import { SessionJournal } from '$domain/journal/journal';
import { SEED_DESK_CUSTOM_TYPE } from '$domain/snapshot';

/**
 * For tests of what the graph sends: a small layout with every kind of row field in use (forks,
 * lanes passing through, a label, a valid desk and a corrupt one), the leaf on the corrupt entry.
 */
export function sampleGraphRows(): GraphRow[] {
  const place = (id: string, parentId: string | null) => ({ id: asEntryId(id), parentId: parentId === null ? null : asEntryId(parentId), timestamp: '2026-05-01T12:00:00.000Z' });
  const entries = [
    userMessageEntry('hello', place('a', null)),
    customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: true, quantities: { 'basil-genovese': 2 } }, place('d', 'a')),
    customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: true, quantities: { tomato: 1 } }, place('bad', 'd')),
    userMessageEntry('sibling', place('b', 'a')),
    userMessageEntry('another sibling', place('c', 'a')),
    userMessageEntry('under b', place('e', 'b')),
  ];
  const journal = SessionJournal.fromEntries(sessionHeader(asSessionId('s'), '2026-05-01T12:00:00.000Z', '/'), entries);
  journal.appendLabel(asEntryId('d'), 'checkpoint', { id: asEntryId('l1'), timestamp: '2026-05-01T12:00:01.000Z' });
  journal.moveLeaf(asEntryId('bad'));
  return graphLayout(journal);
}
