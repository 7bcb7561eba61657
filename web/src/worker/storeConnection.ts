import type { IDBPDatabase } from 'idb';
import { hostLocks } from './ownGlobals';
import { describeStorageError, StorageFailure } from './storeFailures';
import type { KnownHeads } from './storeKnown';
import { WriterLease, type LockManagerLike } from './storeLease';
import { connect, type PlaygroundDB } from './storeSchema';

/**
 * How a JournalStore lives beside other tabs: its connection to the database, which another tab's
 * upgrade or deletion (or the browser) can take away and a reopen opens again, and the writer
 * lease it shares with them (`leaseFor`).
 */

/** What a store's owner hears of its connection (StoreHooks, store.ts). */
export interface ConnectionHooks {
  /** The connection is gone for good until a reconnect; writes must stop. */
  readonly onLost?: (reason: string) => void;
  /** Opening waits for another tab to let go of an older connection. */
  readonly onBlocked?: () => void;
}

export class StoreConnection {
  private db: IDBPDatabase<PlaygroundDB> | null;
  /** Why the connection is gone (another tab upgraded or deleted the database, the browser closed it). */
  private lost: string | null = null;

  /** `known` is the store's: cleared whenever the database may no longer be what it learnt. */
  private constructor(
    db: IDBPDatabase<PlaygroundDB>,
    private readonly name: string,
    private readonly hooks: ConnectionHooks,
    private readonly known: KnownHeads,
  ) {
    this.db = db;
  }

  static async open(name: string, hooks: ConnectionHooks, known: KnownHeads): Promise<StoreConnection> {
    let connection: StoreConnection | null = null;
    const db = await connect(name, StoreConnection.connectionEvents(() => connection, hooks));
    connection = new StoreConnection(db, name, hooks, known);
    return connection;
  }

  /** What a connection does when another tab or the browser takes the database away. */
  private static connectionEvents(owner: () => StoreConnection | null, hooks: ConnectionHooks) {
    return {
      blocking: () => owner()?.lose('Another tab is upgrading or deleting the playground database, so this tab let go of it.'),
      terminated: () => owner()?.lose('The browser closed the database connection (storage was cleared or the disk failed).'),
      blocked: () => hooks.onBlocked?.(),
    };
  }

  /** Opens the connection again after it was lost: a reopen's first step. */
  async reconnect(): Promise<void> {
    if (this.db && !this.lost) return;
    this.db?.close();
    this.known.clear();
    try {
      this.db = await connect(this.name, StoreConnection.connectionEvents(() => this, this.hooks));
      this.lost = null;
    } catch (error) {
      this.db = null;
      const reason =
        error instanceof DOMException && error.name === 'VersionError'
          ? 'The database was upgraded by a newer version of the playground in another tab. Reload this tab to get that version.'
          : describeStorageError(error);
      this.lost = reason;
      throw new StorageFailure(reason, error);
    }
  }

  close(): void {
    this.db?.close();
    this.db = null;
    this.lost = this.lost ?? 'The database connection was closed.';
    this.known.clear();
  }

  lose(reason: string): void {
    // Let go at once: the other tab's upgrade or deletion waits for every connection to close.
    this.db?.close();
    this.db = null;
    this.lost = reason;
    // Whatever replaces the database was not written under this store's lease.
    this.known.clear();
    this.hooks.onLost?.(reason);
  }

  /** The open connection; a StorageFailure saying why when there is none. */
  current(): IDBPDatabase<PlaygroundDB> {
    if (!this.db) throw new StorageFailure(this.lost ?? 'The database is not open.');
    return this.db;
  }
}

export function webLocks(): LockManagerLike | null {
  return hostLocks();
}

/** The writer lease of database `name`, between the stores (tabs) that share these Web Locks; null without them. */
export function leaseFor(name: string, locks: LockManagerLike | null): WriterLease | null {
  if (!locks || typeof BroadcastChannel === 'undefined') return null;
  const channelName = `${name}:writer-lease`;
  const channel = new BroadcastChannel(channelName);
  // Node (tests) would otherwise stay alive for the channel.
  (channel as unknown as { unref?: () => void }).unref?.();
  return new WriterLease(locks, channelName, channel);
}
