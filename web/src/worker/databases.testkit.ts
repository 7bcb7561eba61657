import { afterEach } from 'vitest';
import { seededIdSource } from '$domain/ids';
import { PlaygroundHost } from './host';
import { JournalStore } from './store';

/**
 * For tests on fake-indexeddb: every store opened through here gets its own database, closed and
 * deleted after each test, so tests never see each other's journals. Call at a test file's top.
 */
export function freshDatabases(prefix: string) {
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

  async function openStore(name = `${prefix}-${process.pid}-${++counter}`): Promise<JournalStore> {
    const store = await JournalStore.open(name);
    opened.push({ store, name });
    return store;
  }

  async function freshHost(seed: number): Promise<{ host: PlaygroundHost; store: JournalStore; name: string }> {
    const name = `${prefix}-${process.pid}-${++counter}`;
    const store = await openStore(name);
    const host = await PlaygroundHost.start(store, seededIdSource(seed));
    return { host, store, name };
  }

  return { openStore, freshHost };
}
