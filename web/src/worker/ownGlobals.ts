import type { LockManagerLike } from './storeLease';

/**
 * The worker's own IndexedDB factory and Web Locks, taken when this module first loads: before any
 * extension code runs, and so before `edit/guards.ts` can shadow the globals with stubs while a
 * learner's edited extension is loaded. The store opens and reopens its database with these (a
 * reopen after a fault can come while the stubs are in), so a guard meant for extension code never
 * trips on the host's own store.
 */
const ownIndexedDB: IDBFactory | undefined = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
const ownLocks: LockManagerLike | null = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks ?? null;

export function hostLocks(): LockManagerLike | null {
  return ownLocks;
}

/**
 * Runs `open` (which calls `indexedDB.open` synchronously, as idb's `openDB` does) with the
 * worker's own factory in the global, and puts back whatever stood there.
 */
export function withHostIndexedDB<T>(open: () => T): T {
  const scope = globalThis as { indexedDB?: IDBFactory };
  if (ownIndexedDB === undefined || scope.indexedDB === ownIndexedDB) return open();
  const standing = Object.getOwnPropertyDescriptor(globalThis, 'indexedDB');
  Object.defineProperty(globalThis, 'indexedDB', { value: ownIndexedDB, configurable: true, writable: true });
  try {
    return open();
  } finally {
    if (standing) Object.defineProperty(globalThis, 'indexedDB', standing);
    else delete scope.indexedDB;
  }
}
