import { unwrap, wrap, type IDBPDatabase, type IDBPTransaction } from 'idb';
import type { StoreFault } from '../protocol/vocabularies';
import { describeStorageError, failDeliberately, StorageFailure } from './storeFailures';
import type { WriterLease } from './storeLease';
import type { PlaygroundDB, StoreName } from './storeSchema';

export type Scope = StoreName[];
export type WriteTx = IDBPTransaction<PlaygroundDB, Scope, 'readwrite'>;

/** What the write in progress waits for: the writer lease, IndexedDB, or nothing (null) once it is done. */
export type WriteWait = 'lease' | 'store' | null;

/**
 * One write: the stores it needs, what it does in the transaction (on the raw IndexedDB API, so
 * the hot path pays no wrapper; `wrap(tx)` gives the idb API where awaiting reads is clearer),
 * and what it teaches the store once committed.
 */
export interface WritePlan<T> {
  readonly scope: Scope;
  /**
   * May call `finish` once its last request is issued: the transaction then commits without
   * waiting for this side to hear back from every request (one round trip less on a commit).
   */
  readonly run: (tx: IDBTransaction, finish: () => void) => Promise<T>;
  readonly committed?: (result: T) => void;
  /** False for the last-session pointer: a preference, not the journal the demo faults are for. */
  readonly takesFault?: boolean;
}

/** The connection a writer writes on (the store's, storeConnection.ts), and how an injected `close` lets it go. */
export interface WriterConnection {
  current(): IDBPDatabase<PlaygroundDB>;
  lose(reason: string): void;
}

/**
 * A JournalStore's writes (the class comment in store.ts says why they go this way): one at a
 * time, under the writer lease when there is one, each as one readwrite transaction with the
 * injected demo fault applied.
 */
export class StoreWriter {
  private fault: StoreFault | null = null;
  /** The write in flight: the next waits for it, so what the store's `known` says is never planned on twice. */
  private writing: Promise<unknown> = Promise.resolve();
  /** Writes asked for and not yet settled: the wait is over when none is left. */
  private writesPending = 0;

  constructor(
    private readonly connection: WriterConnection,
    private readonly lease: WriterLease | null,
    private readonly onWait: (on: WriteWait) => void,
  ) {}

  /** Demo and test switch: the next write transaction fails (after its writes; `close` before them). */
  injectFault(fault: StoreFault | null): void {
    this.fault = fault;
  }

  /**
   * Every write: under the writer lease (when there is one), one readwrite transaction over the
   * plan's stores, the injected fault applied; a failure aborts it and becomes a StorageFailure.
   * What the write teaches the store is kept only once the transaction has committed.
   */
  write<T>(plan: (epoch: number | null) => WritePlan<T>): Promise<T> {
    const attempt = async (epoch: number | null): Promise<T> => {
      this.onWait('store');
      const { scope, run, committed, takesFault = true } = plan(epoch);
      const fault = takesFault ? this.fault : null;
      if (takesFault) this.fault = null;
      if (fault === 'close') this.connection.lose('The database connection was closed in the middle of a commit (injected for the demo).');
      const tx = unwrap(this.connection.current()).transaction(scope, 'readwrite');
      const done = new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onabort = () => reject(tx.error ?? new DOMException('The transaction was aborted.', 'AbortError'));
      });
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        if (fault && fault !== 'close') failDeliberately(tx, fault);
        tx.commit();
      };
      try {
        const outcome = await run(tx, finish);
        finish();
        await done;
        committed?.(outcome);
        return outcome;
      } catch (error) {
        try {
          tx.abort();
        } catch {
          // Already finished or aborted: nothing more to undo.
        }
        await done.catch(() => undefined);
        throw error instanceof StorageFailure ? error : new StorageFailure(describeStorageError(error), error);
      }
    };
    const lease = this.lease;
    // Behind this store's own write in flight, the wait is IndexedDB's; then the lease's, if it is not held.
    this.writesPending++;
    this.onWait('store');
    const next = this.writing.then(() => {
      if (lease && lease.heldEpoch() === null) this.onWait('lease');
      return lease
        ? lease.run(attempt).catch((error: unknown) => {
            throw error instanceof StorageFailure ? error : new StorageFailure(describeStorageError(error), error);
          })
        : attempt(null);
    });
    this.writing = next.catch(() => undefined);
    const settled = () => {
      if (--this.writesPending === 0) this.onWait(null);
    };
    next.then(settled, settled);
    return next;
  }
}

/** The idb API over a raw transaction of ours (its stores are the plan's scope). */
export function typed(tx: IDBTransaction): WriteTx {
  const wrapped = wrap(tx) as unknown as WriteTx;
  // write() watches the raw transaction; idb's own `done` must not reject unobserved.
  wrapped.done.catch(() => undefined);
  return wrapped;
}

export function result<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}
