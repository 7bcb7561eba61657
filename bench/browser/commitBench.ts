/**
 * The revision-checked commit of the real store against a bare IndexedDB put+commit of the same
 * record (the baseline), in one page, alternating so drift hits both. The checked commit is called
 * as the worker calls it; under the writer lease (Web Locks) it knows the head it wrote last.
 */
import { asEntryId, asSessionId, type EntryId } from '../../domain/ids';
import { customEntry, sessionHeader } from '../../domain/journal/entry';
import { revisionOf } from '../../domain/revision';
import { SEED_DESK_CUSTOM_TYPE } from '../../domain/snapshot';
import { DB_VERSION, JournalStore } from '../../web/src/worker/store';

const ROUNDS = new URLSearchParams(location.search).has('quick') ? 6 : 300;

export interface CommitBenchResult {
  readonly checked: number[];
  readonly bare: number[];
  /** Whether the page had Web Locks (the writer lease) at all. */
  readonly lease: boolean;
}

/** The baseline database has the store's exact schema (same indexes), so only the check differs. */
async function bareDb(): Promise<IDBDatabase> {
  (await JournalStore.open('bench-bare')).close();
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('bench-bare', DB_VERSION);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

function barePut(db: IDBDatabase, record: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction('entries', 'readwrite');
    tx.objectStore('entries').add(record);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

export async function commitBench(): Promise<CommitBenchResult> {
  const store = await JournalStore.open('bench-store');
  const sessionId = asSessionId(crypto.randomUUID());
  await store.createSession(sessionHeader(sessionId, new Date().toISOString(), '/bench'));
  const db = await bareDb();
  const checked: number[] = [];
  const bare: number[] = [];
  let leaf: EntryId | null = null;
  for (let i = 0; i < ROUNDS; i++) {
    const id = asEntryId(i.toString(16).padStart(8, '0'));
    const entry = customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: false, quantities: { 'basil-genovese': i % 8 } }, { id, parentId: leaf, timestamp: new Date().toISOString() });
    const expected = revisionOf(sessionId, leaf);
    const timeChecked = async () => {
      const start = performance.now();
      const outcome = await store.commitChecked(
        sessionId,
        leaf,
        (state) => (state.revision === expected ? { append: true, entries: [entry] } : { append: false, reason: 'stale' }),
      );
      checked.push(performance.now() - start);
      if (outcome.kind !== 'appended') throw new Error(`round ${i}: the checked commit was declined`);
    };
    const timeBare = async () => {
      const start = performance.now();
      // The record the store writes, field for field.
      await barePut(db, { sessionId, id, parentKey: leaf ?? '', entry, deskHead: id, deskLink: { ok: true, snapshot: entry['data'] }, position: i, deskEntries: i + 1, hasAssistant: false });
      bare.push(performance.now() - start);
    };
    // Alternate which goes first, so neither always follows the other's commit.
    if (i % 2 === 0) {
      await timeChecked();
      await timeBare();
    } else {
      await timeBare();
      await timeChecked();
    }
    leaf = id;
  }
  store.close();
  db.close();
  return { checked, bare, lease: typeof navigator.locks?.request === 'function' };
}
