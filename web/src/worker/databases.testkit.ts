import { afterEach } from 'vitest';
import { seededIdSource } from '$domain/ids';
import { PlaygroundHost } from './playgroundHost';
import { JournalStore, type StoreOptions } from './store';
import { ENTRIES, IMPORTS } from './storeSchema';

/**
 * For tests on fake-indexeddb: every store opened through here gets its own database, closed and
 * deleted after each test, so tests never see each other's journals. Call at a test file's top.
 * `options.locks` hands the stores Web Locks (Node has none: without, every write reads its head).
 */
export function freshDatabases(prefix: string, options: StoreOptions = {}) {
  let counter = 0;
  const opened: { store: JournalStore; name: string }[] = [];

  afterEach(async () => {
    const names = new Set(opened.map((entry) => entry.name));
    for (const { store } of opened.splice(0)) store.close();
    for (const name of names) {
      await new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase(name);
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
        request.onblocked = () => resolve();
      });
    }
  });

  const nextName = () => `${prefix}-${process.pid}-${++counter}`;

  async function openStore(name = nextName(), storeOptions: StoreOptions = options): Promise<JournalStore> {
    const store = await JournalStore.open(name, {}, storeOptions);
    opened.push({ store, name });
    return store;
  }

  async function freshHost(seed: number): Promise<{ host: PlaygroundHost; store: JournalStore; name: string }> {
    const name = nextName();
    const store = await openStore(name);
    const host = await PlaygroundHost.start(store, seededIdSource(seed));
    return { host, store, name };
  }

  return { openStore, freshHost, nextName };
}

/**
 * How many entries the database `name` holds, all sessions, read straight from IndexedDB on a
 * second connection: the entry records, plus the entries each session was created with that live
 * in segments (its index lists them all; the last one is also an entry record).
 */
export async function totalStoredEntries(name: string): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    const tx = db.transaction([ENTRIES, IMPORTS], 'readonly');
    const request = <T,>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const [records, indexes] = await Promise.all([request(tx.objectStore(ENTRIES).count()), request(tx.objectStore(IMPORTS).getAll() as IDBRequest<{ ids: string[] }[]>)]);
    return records + indexes.reduce((sum, index) => sum + index.ids.length - 1, 0);
  } finally {
    db.close();
  }
}
