import 'fake-indexeddb/auto';
/**
 * An imported file may name a parent on a later line (the host links it; so does the journal).
 * The store keeps the links and desk index the journal derives, so a checked commit on that
 * branch judges the same desk as the page.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '$domain/ids';
import { parseSessionJsonl } from '$domain/journal/importJsonl';
import { SessionJournal } from '$domain/journal/journal';
import { freshDatabases } from './databases.testkit';
import { expectDerivedFactsMatch, readRaw } from './storeRaw.testkit';
import { storedChildren, storedEntries } from './storeReads.testkit';

const { openStore, nextName } = freshDatabases('store-import-order');
const hostWritten = (name: string): string => readFileSync(new URL(`../../../fixtures/host-written/${name}`, import.meta.url), 'utf8');

describe('JournalStore.createSession with a parent on a later line', () => {
  it('stores the same links and desk index as the journal, in file order', async () => {
    const parsed = parseSessionJsonl(hostWritten('parent-later-line.jsonl'), seededIdSource(3));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const journal = SessionJournal.fromEntries(parsed.header, parsed.entries);
    const name = nextName();
    const store = await openStore(name);
    await store.createSession(parsed.header, parsed.entries);

    const records = await storedEntries(store, parsed.header.id);
    expect(records.map((record) => record.id)).toEqual(parsed.entries.map((entry) => entry.id));
    expectDerivedFactsMatch(await readRaw(name, parsed.header.id), journal);
    // The children agree with the journal's tree, the child read before its parent included.
    for (const record of records) {
      const children = await storedChildren(store, parsed.header.id, record.id);
      expect(children.map((child) => child.id), `children of ${record.id}`).toEqual(journal.childrenOf(record.id));
    }
    // The leaf's branch runs through the parent read after its child: its desk is that parent's.
    const head = await store.loadHead(parsed.header.id);
    expect(head?.lastState).toEqual(journal.state());
    expect(journal.state()).toMatchObject({ ok: true, snapshot: { agentEnabled: true } });
  });
});
