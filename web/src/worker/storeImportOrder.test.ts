import 'fake-indexeddb/auto';
/**
 * An imported file may name a parent on a later line (the host links it; so does the journal).
 * The store derives each record's desk index when it writes it, so it must derive a child after
 * its parent too, or a checked commit on that branch would judge a different desk than the page.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '$domain/ids';
import { parseSessionJsonl } from '$domain/journal/importJsonl';
import { SessionJournal } from '$domain/journal/journal';
import { branchStateFrom } from '$domain/reconstruct';
import { freshDatabases } from './databases.testkit';

const { openStore } = freshDatabases('store-import-order');
const hostWritten = (name: string): string => readFileSync(new URL(`../../../fixtures/host-written/${name}`, import.meta.url), 'utf8');

describe('JournalStore.createSession with a parent on a later line', () => {
  it('stores the same desk index as the journal links, in file order', async () => {
    const parsed = parseSessionJsonl(hostWritten('parent-later-line.jsonl'), seededIdSource(3));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const journal = SessionJournal.fromEntries(parsed.header, parsed.entries);
    const store = await openStore();
    await store.createSession(parsed.header, parsed.entries);

    const records = await store.loadEntries(parsed.header.id);
    expect(records.map((record) => record.id)).toEqual(parsed.entries.map((entry) => entry.id));
    for (const record of records) {
      expect(branchStateFrom(parsed.header.id, record.deskHead, record.deskLink), `record ${record.id}`).toEqual(journal.state(record.id));
    }
    // The children index agrees with the journal's tree, the child read before its parent included.
    for (const record of records) {
      const children = await store.childrenOf(parsed.header.id, record.id);
      expect(children.map((child) => child.id), `children of ${record.id}`).toEqual(journal.childrenOf(record.id));
    }
    // The leaf's branch runs through the parent read after its child: its desk is that parent's.
    const leaf = records.at(-1);
    expect(leaf?.deskHead).toBe(journal.state().deskHead);
    expect(journal.state()).toMatchObject({ ok: true, snapshot: { agentEnabled: true } });
  });
});
